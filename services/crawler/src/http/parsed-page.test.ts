import { visibleText } from '@mimamori/watch-engine/visible-text';
import { selectOne } from 'css-select';
import render from 'dom-serializer';
import type { Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
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

describe('ParsedPage parsing only as far as an area needs', () => {
  // Implied closes, void elements, siblings, tables, a script with markup in it, an area after the
  // first one in the page, and one the page never closes.
  const page = `<!doctype html><html><head><script>document.write('<div id="late">x</div>')</script></head>
<body><p class="a">one<div class="b" id="first">two <img alt="pic" src="/p.png"></div><p class="a">three
<ul><li>1<li class="c">2<li>3</ul><h2>t</h2><table><tr><td>a<td class="c">b</table><span>s</span>
<section id="late"><p>late <b>bold</b></p><div class="b">inner</div></section><div id="open">never closed`;

  // Before streaming, HTTP mode parsed the whole page and selected on it: the contract.
  const wholeParse = (selector: string) => {
    const element = selectOne(selector, parseDocument(page)) as Element | null;
    if (!element) return null;
    const html = render(element, { encodeEntities: 'utf8' });
    return { html, text: visibleText(html), ...(element.attribs.src ? { src: element.attribs.src } : {}) };
  };
  const selectors = [
    '#first',
    'p.a',
    '.b',
    'li.c',
    'ul > li:nth-child(3)',
    'li:first-child',
    'h2 + table td.c',
    'h2 ~ span',
    'img[src$=".png"]',
    '#late',
    'section > .b',
    '#open',
    'li:last-child',
    'p:has(b)',
    'div:empty',
    '.missing',
    'p:not(.a)',
    'td:nth-of-type(2)',
  ];

  it('finds what a whole parse finds, for each selector on a fresh page', () => {
    for (const selector of selectors) {
      expect(new ParsedPage(page).locate({ selector, selectorType: 'css' }), selector).toEqual(
        wholeParse(selector),
      );
    }
  });

  it('finds what a whole parse finds when one page answers every selector, in either order', () => {
    for (const order of [selectors, [...selectors].reverse()]) {
      const parsed = new ParsedPage(page);
      for (const selector of order) {
        expect(parsed.locate({ selector, selectorType: 'css' }), selector).toEqual(wholeParse(selector));
      }
    }
  });
});
