import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { detectContentKind, readDocument, UnreadableDocumentError } from './document-areas.ts';

const fixture = (name: string) => readFile(new URL(`../../test/documents/${name}`, import.meta.url));
const bytes = (text: string) => new TextEncoder().encode(text);

const RSS = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>IRニュース</title>
<item><title>決算短信を公開しました</title><link>https://example.com/ir/1</link><dc:creator>広報部</dc:creator></item>
<item><title>配当予想の修正</title><link>https://example.com/ir/2</link><dc:creator>IR室</dc:creator></item>
</channel></rss>`;

const ATOM = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>お知らせ</title>
<entry><title>新商品のお知らせ</title><updated>2026-11-21T09:00:00Z</updated></entry></feed>`;

describe('detectContentKind', () => {
  it('reads the content type, and a PDF by its magic bytes whatever it is served as', async () => {
    const pdf = await fixture('ir-report-v1.pdf');
    expect(detectContentKind('application/pdf', pdf)).toBe('pdf');
    expect(detectContentKind('application/octet-stream', pdf)).toBe('pdf');
    expect(detectContentKind('application/json; charset=utf-8', bytes('{}'))).toBe('json');
    expect(detectContentKind('application/ld+json', bytes('{}'))).toBe('json');
    expect(detectContentKind('application/rss+xml', bytes(RSS))).toBe('xml');
    expect(detectContentKind('application/atom+xml', bytes(ATOM))).toBe('xml');
    expect(detectContentKind('text/html; charset=utf-8', bytes('<!doctype html><p>a</p>'))).toBe('page');
  });

  it('looks at the start of a body served as plain text', () => {
    expect(detectContentKind('text/plain', bytes(RSS))).toBe('xml');
    expect(detectContentKind('text/plain', bytes(' [1, 2]'))).toBe('json');
    expect(detectContentKind(undefined, bytes('<html><body>a</body></html>'))).toBe('page');
  });
});

describe('a PDF', () => {
  it('reads Japanese text per page, by page range and by the paragraph containing a text', async () => {
    const pdf = await readDocument('pdf', await fixture('ir-report-v1.pdf'), '');
    expect(pdf.area({ selector: '1', selectorType: 'pages' })).toEqual([
      '2026年度 決算短信',
      '株式会社みまもり商事',
      '配当予想：1株当たり1,200円',
    ]);
    // 高 and 比 come out of the font as Kangxi radicals (⾼ ⽐) and are read as the ideographs.
    expect(pdf.area({ selector: '2-', selectorType: 'pages' })).toEqual([
      '経営成績に関する説明',
      '第1四半期の売上高は前年同期比12%増となりました。',
      '営業利益は堅調に推移しました。',
    ]);
    expect(pdf.area({ selector: '売上高', selectorType: 'text' })).toEqual([
      '第1四半期の売上高は前年同期比12%増となりました。',
    ]);
    // Width and spaces do not matter when looking for the text.
    expect(pdf.area({ selector: '配当 予想：１株', selectorType: 'text' })).toEqual([
      '配当予想：1株当たり1,200円',
    ]);
    expect(pdf.area({ selector: '3', selectorType: 'pages' })).toBeNull();
    expect(pdf.area({ selector: '自己株式', selectorType: 'text' })).toBeNull();
    expect(pdf.lines()).toHaveLength(6);
  });

  it('is unreadable when the bytes are no PDF', async () => {
    await expect(readDocument('pdf', bytes('<html>moved</html>'), '')).rejects.toThrow(
      UnreadableDocumentError,
    );
  });
});

describe('JSON', () => {
  const api = JSON.stringify({
    products: [
      { name: '煎茶 100g', price: 1200, stock: '在庫あり' },
      { name: '玉露 50g', price: 2400, stock: '売り切れ' },
    ],
    updated: '2026-11-21',
  });

  it('reads the values a JSONPath matches: strings as written, the rest pretty-printed', async () => {
    const json = await readDocument('json', new Uint8Array(), api);
    expect(json.area({ selector: '$.products[*].price', selectorType: 'jsonpath' })).toEqual([
      '1200',
      '2400',
    ]);
    expect(json.area({ selector: '$..stock', selectorType: 'jsonpath' })).toEqual(['在庫あり', '売り切れ']);
    expect(json.area({ selector: "$.products[1]['name']", selectorType: 'jsonpath' })).toEqual(['玉露 50g']);
    expect(json.area({ selector: '$.products[0]', selectorType: 'jsonpath' })).toEqual([
      '{',
      '  "name": "煎茶 100g",',
      '  "price": 1200,',
      '  "stock": "在庫あり"',
      '}',
    ]);
    expect(json.area({ selector: '$.missing', selectorType: 'jsonpath' })).toBeNull();
  });

  it('never runs a filter or script expression', async () => {
    const json = await readDocument('json', new Uint8Array(), api);
    expect(() => json.area({ selector: '$.products[?(@.price > 1)]', selectorType: 'jsonpath' })).toThrow(
      /does not parse/,
    );
  });

  it('is unreadable when the body is not JSON', async () => {
    await expect(readDocument('json', new Uint8Array(), '<html>error</html>')).rejects.toThrow(
      /not valid JSON/,
    );
  });
});

describe('XML, RSS and Atom', () => {
  it("reads the text of the nodes an XPath matches, each text a line, with the feed's prefixes", async () => {
    const rss = await readDocument('xml', new Uint8Array(), RSS);
    expect(rss.area({ selector: '//item/title', selectorType: 'xpath' })).toEqual([
      '決算短信を公開しました',
      '配当予想の修正',
    ]);
    expect(rss.area({ selector: '//item[2]', selectorType: 'xpath' })).toEqual([
      '配当予想の修正',
      'https://example.com/ir/2',
      'IR室',
    ]);
    expect(rss.area({ selector: '//item/dc:creator', selectorType: 'xpath' })).toEqual(['広報部', 'IR室']);
    expect(rss.area({ selector: 'count(//item)', selectorType: 'xpath' })).toEqual(['2']);
    expect(rss.area({ selector: '//item/author', selectorType: 'xpath' })).toBeNull();
  });

  it('reads an Atom feed by unprefixed names, whatever its default namespace', async () => {
    const atom = await readDocument('xml', new Uint8Array(), ATOM);
    expect(atom.area({ selector: '/feed/entry/title', selectorType: 'xpath' })).toEqual(['新商品のお知らせ']);
  });

  it('resolves no external entity (XXE): the file is never read', async () => {
    const hostile = `<?xml version="1.0"?>
<!DOCTYPE rss [<!ENTITY secret SYSTEM "file:///etc/hostname"><!ENTITY remote SYSTEM "http://127.0.0.1:9/x">]>
<rss><channel><item><title>a&secret;b&remote;c</title></item></channel></rss>`;
    const hostname = (await readFile('/etc/hostname', 'utf8')).trim();
    const xml = await readDocument('xml', new Uint8Array(), hostile);
    const [title] = xml.area({ selector: '//item/title', selectorType: 'xpath' }) ?? [];
    expect(title).toMatch(/^a.*b.*c$/);
    expect(title).not.toContain(hostname);
  });

  it('is unreadable when the body is not well-formed XML', async () => {
    await expect(readDocument('xml', new Uint8Array(), '<rss><channel>')).rejects.toThrow(/not well-formed/);
  });
});
