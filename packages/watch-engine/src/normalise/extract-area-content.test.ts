import { describe, expect, test } from 'vitest';
import {
  canonicalMarkup,
  extractAreaContent,
  visibleText,
  visibleTextPieces,
} from './extract-area-content.ts';

describe('visible text (strip tags)', () => {
  test('block elements and <br> start lines; source line breaks inside a paragraph do not', () => {
    const html = '<div><h2>新着</h2><p>本日\n  発売</p><ul><li>A</li><li>B<br>C</li></ul></div>';
    expect(visibleText(html).split('\n').filter(Boolean)).toEqual(['新着', '本日 発売', 'A', 'B', 'C']);
  });

  test('scripts, styles, templates and noscript are not text a person reads', () => {
    const html = '<p>a<script>var t = Date.now()</script><style>p{}</style><noscript>x</noscript>b</p>';
    expect(visibleText(html).trim()).toBe('ab');
  });

  test('entities are decoded, so &amp; and & read the same', () => {
    expect(visibleText('<p>Tom &amp; Jerry &lt;3&gt; &#x5728;&nbsp;庫</p>').trim()).toBe(
      'Tom & Jerry <3> 在\u00a0庫',
    );
    expect(visibleText('<p>Tom & Jerry</p>')).toBe(visibleText('<p>Tom &amp; Jerry</p>'));
  });

  test('whitespace between inline elements reads as one space, a lone character or a run', () => {
    expect(visibleText('<b>a</b>\n<b>b</b>\t<b>c</b> \r\n <b>d</b>x<b>e</b>')).toBe('a b c dxe');
  });

  test('preformatted text keeps its line breaks', () => {
    expect(visibleText('<pre>a\nb</pre>').split('\n').filter(Boolean)).toEqual(['a', 'b']);
  });
});

describe('visible text in pieces', () => {
  test('the pieces joined are exactly the visible text, however small the pieces', () => {
    const html =
      '<div title="a>b"><p>x  &gt;  y &amp;\n z</p><pre>a\r\n  b</pre><script>if (a > b) {}</script>' +
      '<ul><li>在庫 &#x5728;</li><li>\u{1F600} > 1</li></ul>tail</div>';
    for (const length of [1, 5, 20, 1000]) {
      expect([...visibleTextPieces(html, length)].join('')).toBe(visibleText(html));
    }
    expect([...visibleTextPieces(html, 20)].length).toBeGreaterThan(3);
  });

  test('markup is parsed only as far as the pieces are read', () => {
    const pieces = visibleTextPieces('<p>a</p><p>b</p><p>c</p>', 1);
    expect(pieces.next().value).toBe('\n');
    expect(pieces.next().value).toBe('a\n');
  });
});

describe('canonical markup (keep tags)', () => {
  test('attributes are sorted, comments dropped, entities spelled one way', () => {
    const a = '<a href="/x?a=1&amp;b=2" class="c"><!-- built 12:00 -->Tom &amp; Jerry</a>';
    const b = '<a class="c" href="/x?a=1&b=2">Tom & Jerry</a>';
    expect(canonicalMarkup(a)).toBe(canonicalMarkup(b));
    expect(canonicalMarkup(b)).toBe('<a class="c" href="/x?a=1&amp;b=2">Tom &amp; Jerry</a>');
  });

  test('a changed attribute is a change', () => {
    expect(canonicalMarkup('<img src="a.png">')).not.toBe(canonicalMarkup('<img src="b.png">'));
  });

  test('block elements are put on their own lines, implied end tags written out', () => {
    expect(canonicalMarkup('<ul><li>a<li>b</ul>').split('\n').filter(Boolean)).toEqual([
      '<ul>',
      '<li>a</li>',
      '<li>b</li>',
      '</ul>',
    ]);
  });

  test('is stable: canonical markup parsed again gives itself', () => {
    const html = '<div id=x><p>a < b &amp; c<br>d<p>e</div><script>if (a < b) {}</script>';
    const once = canonicalMarkup(html);
    expect(canonicalMarkup(once)).toBe(once);
  });
});

describe('extractAreaContent', () => {
  test('prefers the rendered text when tags are stripped', () => {
    expect(extractAreaContent({ html: '<p>hidden<span hidden>x</span></p>', text: 'hidden' }, true)).toBe(
      'hidden',
    );
    expect(extractAreaContent({ html: '<p>a</p>' }, true).trim()).toBe('a');
  });

  test('compares markup when tags are kept, and falls back to the text without markup', () => {
    expect(extractAreaContent({ html: '<b>a</b>', text: 'a' }, false)).toBe('<b>a</b>');
    expect(extractAreaContent({ text: 'a' }, false)).toBe('a');
    expect(extractAreaContent({}, true)).toBe('');
  });
});
