import Encoding from 'encoding-japanese';
import iconv from 'iconv-lite';

export type PageEncoding =
  | 'utf-8'
  | 'shift_jis'
  | 'euc-jp'
  | 'iso-2022-jp'
  | 'utf-16le'
  | 'utf-16be'
  | string;

/**
 * Turns a served page into text the way a browser would pick its encoding: byte-order mark,
 * then the Content-Type charset, then a `<meta charset>` / `http-equiv` (or an XML declaration's
 * encoding) in the first 4 KB, then
 * detection from the bytes (Japanese legacy encodings and UTF-8), falling back to windows-1252.
 */
export function decodePage(
  body: Uint8Array,
  contentType: string | undefined,
): { text: string; encoding: PageEncoding } {
  const encoding =
    fromByteOrderMark(body) ??
    canonicalEncoding(charsetOf(contentType)) ??
    canonicalEncoding(metaCharset(body)) ??
    detectEncoding(body);
  return { text: decodeAs(body, encoding), encoding };
}

// Decoding without `stream` keeps no state between calls, so one decoder serves every page.
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: false });

export function decodeAs(body: Uint8Array, encoding: PageEncoding): string {
  if (encoding === 'utf-8') return UTF8.decode(body);
  // iconv-lite has no ISO-2022-JP; encoding-japanese does, and handles its escape sequences.
  if (encoding === 'iso-2022-jp')
    return Encoding.convert(body, { to: 'UNICODE', from: 'JIS', type: 'string' });
  // Pages labelled Shift_JIS are in practice Windows-31J (①, ㈱, NEC/IBM extensions), as WHATWG says.
  if (encoding === 'shift_jis') return iconv.decode(Buffer.from(body), 'cp932');
  if (iconv.encodingExists(encoding)) return iconv.decode(Buffer.from(body), encoding);
  return new TextDecoder('windows-1252').decode(body);
}

function fromByteOrderMark(body: Uint8Array): PageEncoding | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return null;
}

function charsetOf(contentType: string | undefined): string | undefined {
  return contentType ? /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1] : undefined;
}

function metaCharset(body: Uint8Array): string | undefined {
  // Declarations are ASCII in every encoding a page may declare here, so latin1 keeps their bytes.
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, 4096)).toString('latin1');
  return (
    /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1] ??
    /<meta[^>]+content\s*=\s*["'][^"']*charset\s*=\s*([\w.:-]+)/i.exec(head)?.[1] ??
    // An XML document or feed declares its encoding in its first line.
    /^<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)/.exec(head)?.[1]
  );
}

const LABELS: Record<string, PageEncoding> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'unicode-1-1-utf-8': 'utf-8',
  shift_jis: 'shift_jis',
  'shift-jis': 'shift_jis',
  sjis: 'shift_jis',
  'x-sjis': 'shift_jis',
  ms_kanji: 'shift_jis',
  'windows-31j': 'shift_jis',
  csshiftjis: 'shift_jis',
  cp932: 'shift_jis',
  'euc-jp': 'euc-jp',
  'x-euc-jp': 'euc-jp',
  cseucpkdfmtjapanese: 'euc-jp',
  'iso-2022-jp': 'iso-2022-jp',
  csiso2022jp: 'iso-2022-jp',
};

function canonicalEncoding(label: string | undefined): PageEncoding | null {
  if (!label) return null;
  const lower = label.trim().toLowerCase();
  const known = LABELS[lower];
  if (known) return known;
  // A page's "utf-16" declaration is ignored by browsers when there is no BOM; so here.
  if (lower.startsWith('utf-16')) return null;
  return iconv.encodingExists(lower) ? lower : null;
}

function detectEncoding(body: Uint8Array): PageEncoding {
  const detected = Encoding.detect(body);
  if (detected === 'SJIS') return 'shift_jis';
  if (detected === 'EUCJP') return 'euc-jp';
  if (detected === 'JIS') return 'iso-2022-jp';
  if (detected === 'UTF8' || detected === 'ASCII') return 'utf-8';
  return 'windows-1252';
}
