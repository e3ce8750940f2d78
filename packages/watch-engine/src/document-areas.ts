import xpath from 'xpath';

/**
 * What a target watches: a web page (today's areas by CSS selector or XPath), or a document or
 * data file read over plain HTTP: a PDF, a JSON API, an XML document or RSS/Atom feed
 * (docs/product.md#documents-and-data). One list for the target's settings, the crawler, the
 * gateway and the wizard. Browser-safe: the web imports it as `@mimamori/watch-engine/document-areas`.
 */
export const CONTENT_KINDS = ['page', 'pdf', 'json', 'xml'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];

export function isContentKind(kind: string): kind is ContentKind {
  return (CONTENT_KINDS as readonly string[]).includes(kind);
}

/**
 * How a document's area is named: a PDF by page range (`pages`, "2-3") or by the text its
 * paragraphs contain (`text`), JSON by a JSONPath, XML by an XPath.
 */
export type DocumentSelectorType = 'pages' | 'text' | 'jsonpath' | 'xpath';

/** The selector types an area of each kind may use; a page's areas use CSS or XPath. */
export const AREA_SELECTOR_TYPES: Record<ContentKind, readonly string[]> = {
  page: ['css', 'xpath'],
  pdf: ['pages', 'text'],
  json: ['jsonpath'],
  xml: ['xpath'],
};

export type DocumentAreaProblem =
  | 'selector_type_invalid'
  | 'page_range_invalid'
  | 'text_required'
  | 'jsonpath_invalid'
  | 'jsonpath_script'
  | 'xpath_invalid';

/** Longest text a PDF area may search for: a phrase, not a page. */
const AREA_TEXT_MAX_LENGTH = 200;

/**
 * Why a document area's selector cannot be used, or null when it can. Run where the selector is
 * typed (the wizard) and where the target is saved, so a typo is refused at once instead of
 * reading "element not found" on every check.
 */
export function documentAreaProblem(
  kind: Exclude<ContentKind, 'page'>,
  selectorType: string,
  selector: string,
): DocumentAreaProblem | null {
  if (!AREA_SELECTOR_TYPES[kind].includes(selectorType)) return 'selector_type_invalid';
  if (selectorType === 'pages') return parsePageRange(selector) ? null : 'page_range_invalid';
  if (selectorType === 'text') {
    const text = selector.trim();
    return text === '' || text.length > AREA_TEXT_MAX_LENGTH ? 'text_required' : null;
  }
  if (selectorType === 'jsonpath') return jsonPathProblem(selector);
  return xpathParses(selector) ? null : 'xpath_invalid';
}

export interface PageRange {
  first: number;
  /** null: to the last page. */
  last: number | null;
}

/**
 * A PDF area's pages, counted from 1: `3` (one page), `2-3` (both ends included) or `2-` (to the
 * end). Full-width digits and the dashes and tildes people type for a range (`２〜３`) are read too.
 */
export function parsePageRange(written: string): PageRange | null {
  const folded = written
    .normalize('NFKC')
    .replace(/\s+/g, '')
    .replace(/[‐‑–—―−〜~]/g, '-');
  const match = /^(\d{1,5})(?:(-)(\d{1,5})?)?$/.exec(folded);
  if (!match) return null;
  const first = Number(match[1]);
  const last = match[2] ? (match[3] === undefined ? null : Number(match[3])) : first;
  if (first < 1 || (last !== null && last < first)) return null;
  return { first, last };
}

const NAME = String.raw`[A-Za-z_$\u00C0-\uFFFF][\w$\u00C0-\uFFFF-]*`;
const QUOTED = String.raw`'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"`;
const INDEX = String.raw`-?\d+`;
const SLICE = String.raw`(?:-?\d+)?:(?:-?\d+)?(?::-?\d+)?`;
const BRACKET_ITEM = `(?:${QUOTED}|${SLICE}|${INDEX})`;
const BRACKET = String.raw`\[\s*(?:\*|${BRACKET_ITEM}(?:\s*,\s*${BRACKET_ITEM})*)\s*\]`;
const SEGMENT = String.raw`(?:\.\.?(?:${NAME}|\*)|\.\.(?=\[)|${BRACKET})`;
const JSONPATH = new RegExp(`^\\$(?:${SEGMENT})*$`, 'u');

/**
 * JSONPath as the crawler evaluates it (Goessner's syntax as jsonpath-plus reads it): `$`, then
 * `.name`, `..name` (at any depth), `.*`, `['name']`, `[0]`, `[-1]`, `[0,2]`, `[1:3]`, `[*]`.
 * Filters and script expressions (`[?(...)]`, `[(...)]`) are refused: they would run the
 * user's text as code, and the crawler evaluates with scripts off.
 */
export function jsonPathProblem(path: string): 'jsonpath_invalid' | 'jsonpath_script' | null {
  const trimmed = path.trim();
  if (/\[\s*\??\s*\(/.test(trimmed)) return 'jsonpath_script';
  return JSONPATH.test(trimmed) ? null : 'jsonpath_invalid';
}

// xpath ships `parse` (the expression parser its `select` uses) without declaring it.
const parseXPath = (xpath as unknown as { parse(expression: string): unknown }).parse;

/** Whether the xpath package (which the crawler evaluates with) reads the expression. */
export function xpathParses(expression: string): boolean {
  if (expression.trim() === '') return false;
  try {
    parseXPath(expression);
    return true;
  } catch {
    return false;
  }
}
