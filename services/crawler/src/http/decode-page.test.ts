import Encoding from 'encoding-japanese';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodePage } from './decode-page.ts';

const japanese = '価格は１，２８０円です。新着の「お知らせ」をご覧ください。';
const page = (charsetMeta: string) =>
  `<html><head>${charsetMeta}<title>テスト</title></head><body><p id="price">${japanese}</p></body></html>`;
const jis = (text: string) =>
  Uint8Array.from(Encoding.convert(Encoding.stringToCode(text), { to: 'JIS', from: 'UNICODE' }));

describe('decodePage', () => {
  it.each([
    [
      'Shift_JIS from the header',
      iconv.encode(page(''), 'cp932'),
      'text/html; charset=Shift_JIS',
      'shift_jis',
    ],
    [
      'Shift_JIS from <meta charset>',
      iconv.encode(page('<meta charset="shift_jis">'), 'cp932'),
      'text/html',
      'shift_jis',
    ],
    [
      'Shift_JIS from http-equiv',
      iconv.encode(page('<meta http-equiv="Content-Type" content="text/html; charset=x-sjis">'), 'cp932'),
      undefined,
      'shift_jis',
    ],
    ['Shift_JIS undeclared', iconv.encode(page(''), 'cp932'), 'text/html', 'shift_jis'],
    ['EUC-JP from the header', iconv.encode(page(''), 'euc-jp'), 'text/html; charset="EUC-JP"', 'euc-jp'],
    ['EUC-JP undeclared', iconv.encode(page(''), 'euc-jp'), 'text/html', 'euc-jp'],
    ['ISO-2022-JP declared', jis(page('<meta charset="ISO-2022-JP">')), 'text/html', 'iso-2022-jp'],
    ['ISO-2022-JP undeclared', jis(page('')), 'text/html', 'iso-2022-jp'],
    ['UTF-8 undeclared', Buffer.from(page('')), 'text/html', 'utf-8'],
    [
      'UTF-8 with a BOM despite a wrong header',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(page(''))]),
      'text/html; charset=Shift_JIS',
      'utf-8',
    ],
  ])('decodes %s', (_name, bytes, contentType, encoding) => {
    const decoded = decodePage(new Uint8Array(bytes), contentType);
    expect(decoded.encoding).toBe(encoding);
    expect(decoded.text).toContain(`<p id="price">${japanese}</p>`);
    expect(decoded.text).toContain('<title>テスト</title>');
  });

  it('reads Shift_JIS pages as Windows-31J, as browsers do (circled digits, half-width kana)', () => {
    const decoded = decodePage(
      new Uint8Array(iconv.encode('<p>①㈱ｶﾀｶﾅ</p>', 'cp932')),
      'text/html; charset=Shift_JIS',
    );
    expect(decoded.text).toBe('<p>①㈱ｶﾀｶﾅ</p>');
  });

  it('keeps Latin-1 pages readable when nothing says otherwise', () => {
    const decoded = decodePage(
      new Uint8Array(iconv.encode('<p>café</p>', 'latin1')),
      'text/html; charset=iso-8859-1',
    );
    expect(decoded.text).toBe('<p>café</p>');
  });
});
