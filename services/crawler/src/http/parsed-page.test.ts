import { visibleText } from '@mimamori/watch-engine/visible-text';
import { selectOne } from 'css-select';
import render from 'dom-serializer';
import type { Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { generateCrawlerPages } from '../../../../bench/fixtures/crawler-pages.ts';
import { compareServedHtml } from './compare-served-html.ts';
import { decodePage } from './decode-page.ts';
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

describe('ParsedPage stopping early gives what the whole parse gives', () => {
  // HTTP mode before it stopped early: the whole page parsed, then selected on; markup, text and src.
  const wholeParse = (page: string, selector: string) => {
    const element = selectOne(selector, parseDocument(page)) as Element | null;
    if (!element) return null;
    const html = render(element, { encodeEntities: 'utf8' });
    return { html, text: visibleText(html), ...(element.attribs.src ? { src: element.attribs.src } : {}) };
  };
  const expectSame = (page: string, selectors: readonly string[]) => {
    for (const selector of selectors) {
      expect(new ParsedPage(page).locate({ selector, selectorType: 'css' }), selector).toEqual(
        wholeParse(page, selector),
      );
    }
  };

  it("on the crawler bench's pages, for the watched block and selectors before, in and after it", () => {
    const selectors = [
      '#watched',
      'div.news-list',
      '#watched li.item:nth-child(4) a',
      'main > article.entry h3',
      'nav a[href="/section/3"]',
      '#watched li:last-child',
      'footer p',
      'article:has(a.more) p',
      'h2 ~ ul li:first-child .date',
    ];
    for (const page of generateCrawlerPages(60)) expectSame(page.html, selectors);
  });

  const cases: [string, string, string[]][] = [
    ['the area at the very end, never closed', '<body><p>x</p><div id="a">last <b>words', ['#a', 'b']],
    [
      'nested elements of the same tag',
      '<div class="n"><div class="n"><div class="n">inner</div>middle</div>outer</div><div class="n">next</div>',
      ['div.n', '.n .n', 'div > div.n', 'div.n:not(:first-child)'],
    ],
    [
      'unclosed and implied-closed tags',
      '<ul><li id="one">one<li id="two">two<p>para<li>three</ul><p id="p">a<p>b<table><tr><td id="c">c<td>d</table>',
      ['#one', '#two', '#two p', '#p', '#c', 'li'],
    ],
    [
      'a template before the area',
      '<p>x</p><template><p>t</p><div id="a">inside <template><i>deeper</i></template></div></template><p>y</p><div id="a">outside <i>it</i></div>',
      ['#a', 'template div', 'div#a', 'p + div#a', 'i', 'template', 'div:first-child'],
    ],
    [
      'an iframe area and its src',
      '<p>x</p><iframe id="f" src="/inner.html"></iframe><iframe class="g" src="/other.html">',
      ['#f', 'iframe.g', 'iframe'],
    ],
    [
      'comments, CDATA and scripts holding the closing tag',
      '<div id="a"><!-- </div> --><script>var s = "</div>";</script><![CDATA[ </div> ]]><style>p::after{content:"</div>"}</style>text</div><p>after</p>',
      ['#a', 'p', 'script'],
    ],
    [
      'entities, attributes in any case and quotes',
      '<DIV ID="a" Title=\'it&apos;s "so"\'>R&amp;D &lt;b&gt; &copy 2026 &#x3042;</DIV>',
      ['#a', 'div[title]'],
    ],
    ['no match', '<div id="a">a</div>', ['#b', 'div.missing', 'span']],
  ];
  it.each(cases)('with %s', (_, page, selectors) => expectSame(page, selectors));

  it('with an encoding declared late in the head: the page is decoded whole before it is parsed', () => {
    const page = `<html><head><title>${'お知らせ'.repeat(200)}</title><meta charset="Shift_JIS"></head><body><div id="a">価格は１，２８０円</div></body></html>`;
    const { text } = decodePage(iconv.encode(page, 'cp932'), 'text/html');
    expect(text).toBe(page);
    expectSame(text, ['#a']);
  });

  it('reads an XPath area from the whole page, the same element a CSS selector finds', () => {
    for (const page of generateCrawlerPages(6)) {
      const parsed = new ParsedPage(page.html);
      expect(parsed.locate({ selector: '//div[@id="watched"]', selectorType: 'xpath' })?.text).toBe(
        wholeParse(page.html, '#watched')?.text,
      );
    }
  });
});

describe("ParsedPage reads an area's text from the element as parsed", () => {
  // What parsing the area's recorded markup again could read otherwise: entities, implied and stray
  // closes, hiding, preformatted line breaks, raw-text and RCDATA elements, foreign content, CDATA.
  const pieces = [
    '<p>',
    '</p>',
    '<li>',
    '<td>',
    '<br>',
    '</br>',
    '<pre>',
    '</pre>',
    '\r\n',
    ' ',
    '  x ',
    'あ',
    '&amp;',
    '&lt;b&gt;',
    '&nbsp;',
    '&copy',
    '<b>',
    '</b>',
    '<DIV Hidden>',
    '<span style="display: none">',
    '<div aria-hidden="true">',
    '</div>',
    '<img alt="a &amp; b">',
    '<textarea>t &amp; &lt;/textarea&gt;</textarea>',
    '<title>&lt;i&gt;</title>',
    '<script>"</p>"</script>',
    '<xmp>&lt;b&gt;<i></xmp>',
    '<noscript>&lt;/noscript&gt;&lt;p&gt;shown</noscript>',
    '<svg><![CDATA[c]]><title>s</title></svg>',
    '<math><mi>&lt;m&gt;</mi><![CDATA[d]]></math>',
    '<!-- c -->',
    '<!doctype x>',
    '<table><tr><th>h',
    '<plaintext>p',
  ];
  let state = 7;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };

  it('is visibleText of its recorded markup, on random markup, whichever way the area is found', () => {
    for (let run = 0; run < 400; run += 1) {
      const inner = Array.from({ length: 12 }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      const page = `<body><section><div id="area">${inner}</div><p>after</p></section></body>`;
      for (const selector of ['#area', 'section > div:first-child', 'div#area:last-of-type']) {
        // The random closes may leave the last two selectors nothing to match; '#area' always has one.
        const area = new ParsedPage(page).locate({ selector, selectorType: 'css' });
        if (area) expect(area.text, `${selector} in ${page}`).toBe(visibleText(area.html));
        else expect(selector).not.toBe('#area');
      }
    }
  });

  it('inside SVG or MathML too, where the markup is read again', () => {
    const page = '<math><mrow id="area"><mi>a</mi><![CDATA[b]]></mrow></math>';
    const area = new ParsedPage(page).locate({ selector: '#area', selectorType: 'css' });
    expect(area?.text).toBe(visibleText(area?.html ?? ''));
  });
});
