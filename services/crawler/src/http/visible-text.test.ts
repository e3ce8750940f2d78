import { extractAreaContent } from '@mimamori/watch-engine';
import { describe, expect, it } from 'vitest';
import { ParsedPage } from './parsed-page.ts';

// One page with what splits text into lines differently when two extractions drift apart.
const page = new ParsedPage(`<!DOCTYPE html>
<html><head><title>店</title><style>li { color: red }</style></head><body>
<main id="area">
  <h2>お知らせ &amp; 新着</h2>
  <div><section><p>新製品を
     <b>発売</b>しました。<br>詳しくは<a href="#">こちら</a></p></section></div>
  <ul><li>りんご<ul><li>ふじ&nbsp;1kg</li></ul></li><li>みかん</li></ul>
  <menu><li>メニュー</li></menu>
  <table><tr><th>品名</th><td>価格</td></tr><tr><td>りんご</td><td>&yen;120</td></tr></table>
  <script>document.write('<p>script</p>')</script><noscript>noscript</noscript>
  <span hidden>hidden</span><span style="display:none">none</span><img alt="写真">
  <pre>一行目
  二行目</pre>
</main></body></html>`);

const expected = [
  'お知らせ & 新着',
  '新製品を 発売しました。',
  '詳しくはこちら',
  'りんご',
  'ふじ\u00a01kg',
  'みかん',
  'メニュー',
  '品名 価格',
  'りんご ¥120',
  '写真',
  '一行目',
  '二行目',
].join('\n');

describe("HTTP mode's area text", () => {
  it.each([
    ['CSS', { selector: '#area', selectorType: 'css' as const }],
    ['XPath', { selector: '//main[@id="area"]', selectorType: 'xpath' as const }],
  ])('is the text the engine reads from the same markup (%s)', (_, locator) => {
    const area = page.locate(locator);
    expect(area?.text).toBe(expected);
    // The engine prefers the crawler's text; from the markup alone it must read the same.
    expect(extractAreaContent({ html: area?.html ?? '' }, true)).toBe(area?.text);
  });

  it('is the text of the whole page when the area is the body', () => {
    const body = page.locate({ selector: 'body', selectorType: 'css' });
    expect(body?.text).toBe(expected);
    expect(extractAreaContent({ html: body?.html ?? '' }, true)).toBe(expected);
  });
});
