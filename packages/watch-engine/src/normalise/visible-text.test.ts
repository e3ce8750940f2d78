import { describe, expect, test } from 'vitest';
import { visibleText, visibleTextPieces } from './visible-text.ts';

describe('visible text', () => {
  test('block elements and <br> start lines; source line breaks inside a paragraph do not', () => {
    const html = '<div><h2>新着</h2><p>本日\n  発売</p><ul><li>A</li><li>B<br>C</li></ul></div>';
    expect(visibleText(html)).toBe('新着\n本日 発売\nA\nB\nC');
  });

  test('inline runs stay together, whitespace collapses once across elements, lines are trimmed', () => {
    expect(
      visibleText(
        '<div><h2>お知らせ</h2><p>新製品を\n   <b>発売</b>しました。<br>詳しくは<a href="#">こちら</a></p></div>',
      ),
    ).toBe('お知らせ\n新製品を 発売しました。\n詳しくはこちら');
    expect(visibleText('<p> a <b> b </b> c </p>')).toBe('a b c');
  });

  test('body, html and menu break lines like the other blocks', () => {
    expect(visibleText('a<html><body>b<menu><li>c</li></menu>d</body></html>')).toBe('a\nb\nc\nd');
  });

  test('scripts, styles, templates, head content and noscript are not text a person reads', () => {
    const html =
      '<head><title>t</title><meta charset="utf-8"></head>' +
      '<p>a<script>var t = Date.now()</script><style>p{}</style><noscript>x</noscript><template>tpl</template>b</p>';
    expect(visibleText(html)).toBe('ab');
  });

  test('content hidden on the element itself is left out; images read as their alt text', () => {
    expect(
      visibleText(
        '<div>見える<span hidden>hidden</span><span style="display: none">none</span>' +
          '<span style="Visibility:Hidden">vis</span><span aria-hidden="true">aria<p>block</p></span>' +
          '<input type="hidden" value="secret"><svg><text>図</text></svg><select><option>o</option></select>' +
          '<img alt="写真"></div>',
      ),
    ).toBe('見える 写真');
  });

  test("a table row's cells share a line, a space apart", () => {
    expect(
      visibleText(
        '<table><tr><th>品名</th><td>価格</td></tr><tr><td>りんご</td><td> 120円 </td></tr></table>',
      ),
    ).toBe('品名 価格\nりんご 120円');
  });

  test('entities are decoded, so &amp; and & read the same; a no-break space stays', () => {
    expect(visibleText('<p>Tom &amp; Jerry &lt;3&gt; &#x5728;&nbsp;庫</p>')).toBe(
      'Tom & Jerry <3> 在\u00a0庫',
    );
    expect(visibleText('<p>Tom & Jerry</p>')).toBe(visibleText('<p>Tom &amp; Jerry</p>'));
  });

  test('whitespace between inline elements reads as one space, a lone character or a run', () => {
    expect(visibleText('<b>a</b>\n<b>b</b>\t<b>c</b> \r\n <b>d</b>x<b>e</b>')).toBe('a b c dxe');
  });

  test('preformatted text keeps its line breaks and the spaces inside its lines', () => {
    expect(visibleText('<pre>a\nb  c\r\n\n d</pre>')).toBe('a\nb  c\nd');
  });

  test('a long run of spaces is trimmed in linear time', () => {
    const spaces = ' '.repeat(200_000);
    const started = performance.now();
    expect(visibleText(`<pre>${spaces}x${spaces}</pre>`)).toBe('x');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('visible text in pieces', () => {
  test('the pieces joined are exactly the visible text, however small the pieces', () => {
    const html =
      '<div title="a>b"><p>x  &gt;  y &amp;\n z</p><pre>a\r\n  b</pre><script>if (a > b) {}</script>' +
      '<table><tr><td>在庫 &#x5728;</td><td hidden>x</td><td>\u{1F600} > 1</td></tr></table>tail</div>';
    for (const length of [1, 5, 20, 1000]) {
      expect([...visibleTextPieces(html, length)].join('')).toBe(visibleText(html));
    }
    expect([...visibleTextPieces(html, 20)].length).toBeGreaterThan(3);
  });

  test('markup is parsed only as far as the pieces are read', () => {
    const pieces = visibleTextPieces('<p>a</p><p>b</p><p>c</p>', 1);
    expect(pieces.next().value).toBe('');
    expect(pieces.next().value).toBe('a');
    expect(pieces.next().value).toBe('');
    expect(pieces.next().value).toBe('\nb');
  });
});
