import { describe, expect, it } from 'vitest';
import { compareServedHtml } from './compare-served-html.ts';
import { InvalidSelectorError, ParsedPage } from './parsed-page.ts';

const html = `<!DOCTYPE html>
<html><body><div id="news" class="box"><h2>News</h2><ul><li>first</li><li>second <em>item</em></li></ul></div>
<iframe id="frame" src="/inner.html"></iframe></body></html>`;

describe('ParsedPage', () => {
  const page = new ParsedPage(html);

  it('locates by CSS selector with the area HTML and its visible text', () => {
    expect(page.locate({ selector: '#news li:nth-child(2)', selectorType: 'css' })).toEqual({
      html: '<li>second <em>item</em></li>',
      text: 'second item',
    });
  });

  it('locates by XPath with HTML semantics, including text nodes', () => {
    expect(page.locate({ selector: '//div[@id="news"]/ul/li[1]', selectorType: 'xpath' })).toEqual({
      html: '<li>first</li>',
      text: 'first',
    });
    expect(page.locate({ selector: '/html/body/div/h2/text()', selectorType: 'xpath' })?.text).toBe('News');
  });

  it('gives an iframe its src and returns null for what is not there', () => {
    expect(page.locate({ selector: 'iframe#frame', selectorType: 'css' })?.src).toBe('/inner.html');
    expect(page.locate({ selector: '//iframe', selectorType: 'xpath' })?.src).toBe('/inner.html');
    expect(page.locate({ selector: '.missing', selectorType: 'css' })).toBeNull();
    expect(page.locate({ selector: '//table', selectorType: 'xpath' })).toBeNull();
  });

  it('names a selector that is not valid', () => {
    expect(() => page.locate({ selector: 'div[', selectorType: 'css' })).toThrow(InvalidSelectorError);
    expect(() => page.locate({ selector: '//div[', selectorType: 'xpath' })).toThrow(
      /XPath "\/\/div\[" is not valid/,
    );
  });
});

describe('compareServedHtml', () => {
  it('says HTTP mode suffices only when every area is served with the text the browser showed', () => {
    const news = { areaId: 'a1', selector: '#news h2', selectorType: 'css' as const, text: ' News\n' };
    expect(compareServedHtml(html, [news]).httpSuffices).toBe(true);
    const rendered = {
      areaId: 'a2',
      selector: '#app',
      selectorType: 'css' as const,
      text: 'rendered by script',
    };
    const changed = { ...news, areaId: 'a3', text: 'News (3 new)' };
    expect(compareServedHtml(html, [news, rendered, changed])).toEqual({
      httpSuffices: false,
      areas: [
        { areaId: 'a1', found: true, sameText: true },
        { areaId: 'a2', found: false, sameText: false },
        { areaId: 'a3', found: true, sameText: false },
      ],
    });
  });
});
