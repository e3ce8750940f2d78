import {
  type ContentKind,
  jsonPathProblem,
  type PageRange,
  parsePageRange,
  xpathParses,
} from '@mimamori/watch-engine/document-areas';
import { DOMParser, type Node as XmlNode } from '@xmldom/xmldom';
import { JSONPath } from 'jsonpath-plus';
import xpath from 'xpath';
import type { AreaContent, AreaRequest } from '../domain/page-fetcher.ts';
import { type PdfPage, pdfPages, UnreadablePdfError } from './pdf-text.ts';

type DocumentKind = Exclude<ContentKind, 'page'>;

/** The served document could not be read as the kind the target watches (broken JSON, not a PDF). */
export class UnreadableDocumentError extends Error {
  override readonly name = 'UnreadableDocumentError';
}

/** An area's selector that cannot be evaluated (the target service refuses these when saving). */
export class InvalidDocumentAreaError extends Error {
  override readonly name = 'InvalidDocumentAreaError';
}

/**
 * What a served response is, from its Content-Type and, for PDF, its first bytes (servers often
 * send PDFs as application/octet-stream): the wizard proposes it when the URL is entered.
 */
export function detectContentKind(contentType: string | undefined, body: Uint8Array): ContentKind {
  const type = (contentType ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/pdf' || startsWithPdfMagic(body)) return 'pdf';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'page';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) return 'xml';
  // Served as plain text or octet-stream: read the start as people would.
  const start = new TextDecoder('utf-8')
    .decode(body.subarray(0, 512))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^<\?xml[\s\S]*?<(rss|feed|rdf:RDF)\b/i.test(start) || /^<(rss|feed|rdf:RDF)\b/i.test(start))
    return 'xml';
  if (/^<\?xml/i.test(start) && !/<html\b/i.test(start)) return 'xml';
  if (/^[[{]/.test(start)) return 'json';
  return 'page';
}

function startsWithPdfMagic(body: Uint8Array): boolean {
  // %PDF- within the first KiB, where readers look for it.
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, 1024)).toString('latin1');
  return head.includes('%PDF-');
}

/** A served document parsed once, its areas read from it. */
export interface ReadDocument {
  /** The whole document's text as lines, for the wizard's preview. */
  lines(): string[];
  /** The area's lines, or null when nothing in the document matches it. */
  area(area: Pick<AreaRequest, 'selector' | 'selectorType'>): string[] | null;
}

export async function readDocument(
  kind: DocumentKind,
  body: Uint8Array,
  text: string,
): Promise<ReadDocument> {
  if (kind === 'pdf') return pdfDocument(body);
  if (kind === 'json') return jsonDocument(text);
  return xmlDocument(text);
}

/** What the check records of an area: its lines as text, and as markup one paragraph a line. */
export function areaContent(areaId: string, lines: string[]): AreaContent {
  return {
    areaId,
    found: true,
    text: lines.join('\n'),
    // The engine compares markup when an area keeps its tags: one <p> a line reads as the same lines.
    html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n'),
  };
}

async function pdfDocument(body: Uint8Array): Promise<ReadDocument> {
  let pages: PdfPage[];
  try {
    pages = await pdfPages(body);
  } catch (error) {
    if (error instanceof UnreadablePdfError)
      throw new UnreadableDocumentError(`not a readable PDF: ${error.message}`);
    throw error;
  }
  return {
    lines: () => pages.flatMap((page) => page.lines),
    area({ selector, selectorType }) {
      if (selectorType === 'pages') {
        const range = parsePageRange(selector);
        if (!range)
          throw new InvalidDocumentAreaError(`page range ${JSON.stringify(selector)} does not parse`);
        return linesOfPages(pages, range);
      }
      if (selectorType === 'text') {
        const needle = searchForm(selector);
        if (needle === '') throw new InvalidDocumentAreaError('an area by text needs a text to look for');
        const found = pages
          .flatMap((page) => page.paragraphs)
          .filter((paragraph) => searchForm(paragraph.join('')).includes(needle));
        return found.length > 0 ? found.flat() : null;
      }
      throw new InvalidDocumentAreaError(`a PDF's area is chosen by pages or text, not ${selectorType}`);
    },
  };
}

function linesOfPages(pages: PdfPage[], range: PageRange): string[] | null {
  if (range.first > pages.length) return null;
  return pages.slice(range.first - 1, range.last ?? pages.length).flatMap((page) => page.lines);
}

/** Text compared for a PDF area by text: width-folded, lower case, without spaces or line breaks. */
function searchForm(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
}

function jsonDocument(text: string): ReadDocument {
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new UnreadableDocumentError(`not valid JSON: ${error instanceof Error ? error.message : error}`);
  }
  return {
    lines: () => jsonLines(json),
    area({ selector, selectorType }) {
      if (selectorType !== 'jsonpath' || jsonPathProblem(selector))
        throw new InvalidDocumentAreaError(`JSONPath ${JSON.stringify(selector)} does not parse`);
      // eval: false: jsonpath-plus would otherwise run filter expressions; the syntax check above
      // refuses them already, this keeps a stored one from ever running.
      const values = JSONPath({
        path: selector.trim(),
        json: json as object,
        eval: false,
        wrap: true,
      }) as unknown[];
      return values.length > 0 ? values.flatMap(jsonLines) : null;
    },
  };
}

/** A matched JSON value as lines: a string as written, anything else pretty-printed. */
function jsonLines(value: unknown): string[] {
  const written = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return (written ?? 'null').split(/\r?\n/);
}

function xmlDocument(text: string): ReadDocument {
  let fatal = '';
  let document: ReturnType<DOMParser['parseFromString']> | undefined;
  try {
    // xmldom resolves no entity it is not given (no DTD is read, nothing is fetched): an external
    // entity stays unresolved, so a feed cannot make the crawler read a file or a URL (XXE).
    document = new DOMParser({
      onError: (level, message) => {
        if (level === 'fatalError') fatal ||= message;
      },
    }).parseFromString(text.replace(/^\uFEFF/, ''), 'text/xml');
  } catch (error) {
    fatal ||= error instanceof Error ? error.message : String(error);
  }
  if (fatal || !document?.documentElement)
    throw new UnreadableDocumentError(`not well-formed XML: ${fatal || 'no root element'}`);
  const namespaces = declaredPrefixes(document.documentElement);
  return {
    lines: () => nodeLines(document.documentElement as unknown as XmlNode),
    area({ selector, selectorType }) {
      if (selectorType !== 'xpath' || !xpathParses(selector))
        throw new InvalidDocumentAreaError(`XPath ${JSON.stringify(selector)} does not parse`);
      let value: XPathValue;
      try {
        value = (xpath as unknown as XPathParser).parse(selector).evaluate({
          node: document,
          namespaces,
          // `/feed/entry/title` reads an Atom feed, whose elements are in a default namespace.
          allowAnyNamespaceForNoPrefix: true,
        });
      } catch (error) {
        throw new InvalidDocumentAreaError(
          `XPath ${JSON.stringify(selector)} cannot run: ${error instanceof Error ? error.message : error}`,
        );
      }
      if (typeof value.toArray !== 'function') {
        const single = value.stringValue();
        return single.trim() === '' ? null : [single.trim()];
      }
      const lines = value.toArray().flatMap((node) => nodeLines(node));
      return lines.length > 0 ? lines : null;
    },
  };
}

interface XPathValue {
  toArray?: () => XmlNode[];
  stringValue(): string;
}

interface XPathParser {
  parse(expression: string): {
    evaluate(options: {
      node: unknown;
      namespaces: Record<string, string>;
      allowAnyNamespaceForNoPrefix: boolean;
    }): XPathValue;
  };
}

/** The prefixes the root declares (`dc:`, `media:`), so an XPath may use them as the feed does. */
function declaredPrefixes(root: { attributes?: ArrayLike<{ name: string; value: string }> | null }) {
  const namespaces: Record<string, string> = {};
  for (const attribute of Array.from(root.attributes ?? [])) {
    if (attribute.name.startsWith('xmlns:')) namespaces[attribute.name.slice(6)] = attribute.value;
  }
  return namespaces;
}

const ELEMENT = 1;
const ATTRIBUTE = 2;
const TEXT = 3;
const CDATA = 4;

/** A node's text as lines: each non-blank text inside it (an item's title, link, description) a line. */
function nodeLines(node: XmlNode): string[] {
  if (node.nodeType === ATTRIBUTE || node.nodeType === TEXT || node.nodeType === CDATA) {
    return splitLines(node.nodeValue ?? '');
  }
  if (node.nodeType !== ELEMENT && node.nodeType !== 9) return splitLines(node.textContent ?? '');
  const lines: string[] = [];
  const walk = (current: XmlNode) => {
    for (let child = current.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT || child.nodeType === CDATA)
        lines.push(...splitLines(child.nodeValue ?? ''));
      else if (child.nodeType === ELEMENT) walk(child);
    }
  };
  walk(node);
  return lines;
}

function splitLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
