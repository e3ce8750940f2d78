import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { visibleText } from './visible-text.ts';

const textOf = (html: string) => visibleText(parseDocument(html).children);

describe('visibleText (HTTP mode)', () => {
  it('breaks lines at blocks and <br>, keeps inline runs together and collapses whitespace', () => {
    expect(
      textOf(
        '<div><h2>お知らせ</h2><p>新製品を\n   <b>発売</b>しました。<br>詳しくは<a href="#">こちら</a></p></div>',
      ),
    ).toBe('お知らせ\n新製品を 発売しました。\n詳しくはこちら');
  });

  it('skips scripts, styles, templates, hidden and display:none content', () => {
    expect(
      textOf(
        '<div>見える<script>var x = "script";</script><style>p{}</style><noscript>ns</noscript><template>tpl</template>' +
          '<span hidden>hidden</span><span style="display: none">none</span><span aria-hidden="true">aria</span>' +
          '<input type="hidden" value="secret"><img alt="写真"></div>',
      ),
    ).toBe('見える 写真');
  });

  it('puts table cells on one line per row', () => {
    expect(
      textOf('<table><tr><th>品名</th><td>価格</td></tr><tr><td>りんご</td><td>120円</td></tr></table>'),
    ).toBe('品名 価格\nりんご 120円');
  });
});
