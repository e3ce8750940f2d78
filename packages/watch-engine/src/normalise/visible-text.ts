import { Parser } from 'htmlparser2';
import { SkimmingTokenizer } from './skimming-tokenizer.ts';

/**
 * Elements that start and end a line of text. One set for the whole product: the crawler's HTTP mode
 * reads an area's text with visibleText, and the engine derives the same text from stored markup, so
 * two copies would let the two split a page into different lines (they once did: the engine's lacked
 * body/html/menu, HTTP mode's lacked table cells). It is the union of both, less td/th: a browser's
 * innerText puts a row's cells on one line, so cells are TABLE_CELLS, not blocks.
 */
export const BLOCK_ELEMENTS: ReadonlySet<string> = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'legend',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'option',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'tfoot',
  'thead',
  'tr',
  'ul',
]);

/** Set apart by a space on their row's line, where innerText sets them apart by a tab. */
export const TABLE_CELLS: ReadonlySet<string> = new Set(['td', 'th']);

// Elements whose content a person never reads on the page. Stylesheets are not applied, so only
// the hiding a page writes on the element itself (see hidesContent) is known.
const SKIPPED = new Set([
  'canvas',
  'datalist',
  'head',
  'iframe',
  'link',
  'meta',
  'noscript',
  'object',
  'script',
  'select',
  'style',
  'svg',
  'template',
  'title',
]);
const PREFORMATTED = new Set(['pre', 'textarea', 'listing', 'plaintext']);
const HIDING_STYLE = /(display\s*:\s*none|visibility\s*:\s*hidden)/i;
// Only HTML's own whitespace collapses, as in CSS: a no-break or ideographic space is text the page
// wrote on purpose (the normaliser folds those later, for comparing).
const HTML_SPACE_RUN = /[\t\n\f\r ]+/g;
const UNTIDY_HTML_SPACE = /[\t\n\f\r]| {2}/;
const PREFORMATTED_LINE_BREAK = /[\n\r]/;

/**
 * Text as a person reads it on the page, without a layout engine to ask:
 * - block elements and `<br>` break lines; a table row's cells share a line, a space apart;
 * - script, style, head, template, embedded objects, form pickers and anything with the `hidden`
 *   attribute, `aria-hidden="true"` or an inline `display:none` / `visibility:hidden` style are
 *   left out; images read as their alt text;
 * - runs of HTML whitespace read as one space, except in preformatted text, which keeps its line
 *   breaks; each line is trimmed and empty lines are left out.
 */
export function visibleText(html: string): string {
  let text = '';
  visibleTextParser((piece) => {
    text += piece;
  }).end(html);
  return text;
}

/**
 * visibleText in pieces, about `markupLength` characters of markup at a time, so that a comparison can
 * stop before the rest is parsed. The markup is cut only just after a '>', so no run of spaces, entity
 * or character is split: the pieces joined are exactly visibleText(html). A line is given once it is
 * complete, so a piece may be empty.
 */
export function* visibleTextPieces(html: string, markupLength: number): Generator<string> {
  let text = '';
  const parser = visibleTextParser((piece) => {
    text += piece;
  });
  for (let from = 0; from < html.length; ) {
    const cut = html.indexOf('>', from + markupLength - 1);
    const to = cut < 0 ? html.length : cut + 1;
    parser.write(html.slice(from, to));
    from = to;
    yield text;
    text = '';
  }
  parser.end();
  yield text;
}

/** The parser events visibleText reads markup by, in document order. */
export interface VisibleTextEvents {
  onopentag(name: string, attributes: Record<string, string>): void;
  onclosetag(name: string): void;
  ontext(data: string): void;
}

/**
 * visibleText of markup that was parsed already, without parsing it again: `replay` gives the events
 * a parse of that markup gives (text may come in other pieces: runs of spaces join across them) and
 * answers whether it could. Undefined when it could not.
 */
export function visibleTextOfEvents(replay: (events: VisibleTextEvents) => boolean): string | undefined {
  let text = '';
  const events = visibleTextEvents((piece) => {
    text += piece;
  });
  if (!replay(events)) return undefined;
  events.onend();
  return text;
}

function visibleTextParser(emit: (text: string) => void): Parser {
  return new Parser(visibleTextEvents(emit), { decodeEntities: true, Tokenizer: SkimmingTokenizer });
}

function visibleTextEvents(emit: (text: string) => void): VisibleTextEvents & { onend(): void } {
  // Whether each open element hides its content; htmlparser2 closes every element it opens.
  const hiding: boolean[] = [];
  let hiddenDepth = 0;
  let preformattedDepth = 0;
  let line = '';
  let firstLine = true;
  const breakLine = () => {
    const trimmed = trimHtmlSpace(line);
    line = '';
    if (trimmed === '') return;
    emit(firstLine ? trimmed : `\n${trimmed}`);
    firstLine = false;
  };
  // Collapsed text, so that a space ending one piece and one starting the next read as one.
  const appendCollapsed = (text: string) => {
    line +=
      text.charCodeAt(0) === SPACE && (line === '' || line.charCodeAt(line.length - 1) === SPACE)
        ? text.slice(1)
        : text;
  };
  return {
    onopentag(name, attributes) {
      if (PREFORMATTED.has(name)) preformattedDepth++;
      const hides = hidesContent(name, attributes);
      hiding.push(hides);
      if (hides) hiddenDepth++;
      if (hiddenDepth > 0) return;
      if (name === 'br' || BLOCK_ELEMENTS.has(name)) breakLine();
      else if (TABLE_CELLS.has(name)) appendCollapsed(' ');
      else if (name === 'img' && attributes.alt) appendCollapsed(collapseHtmlSpace(` ${attributes.alt} `));
    },
    onclosetag(name) {
      if (PREFORMATTED.has(name)) preformattedDepth--;
      if (hiding.pop()) hiddenDepth--;
      else if (hiddenDepth === 0) {
        if (BLOCK_ELEMENTS.has(name)) breakLine();
        else if (TABLE_CELLS.has(name)) appendCollapsed(' ');
      }
    },
    ontext(data) {
      if (hiddenDepth > 0) return;
      if (preformattedDepth === 0) {
        appendCollapsed(collapseHtmlSpace(data));
        return;
      }
      const lines = data.split(PREFORMATTED_LINE_BREAK);
      for (let index = 0; index < lines.length - 1; index++) {
        line += lines[index];
        breakLine();
      }
      line += lines.at(-1);
    },
    onend: breakLine,
  };
}

const SPACE = 0x20;

function hidesContent(name: string, attributes: Record<string, string>): boolean {
  if (SKIPPED.has(name) || 'hidden' in attributes || attributes['aria-hidden'] === 'true') return true;
  const style = attributes.style;
  return style !== undefined && HIDING_STYLE.test(style);
}

/** Runs of HTML whitespace as one space, as `data.replace(HTML_SPACE_RUN, ' ')`, sparing most calls. */
function collapseHtmlSpace(data: string): string {
  // The line breaks between block elements come one character at a time.
  if (data.length === 1) return isHtmlSpace(data.charCodeAt(0)) ? ' ' : data;
  // Most text has single spaces only: testing first spares building the same string again.
  return UNTIDY_HTML_SPACE.test(data) ? data.replace(HTML_SPACE_RUN, ' ') : data;
}

/** The line without HTML whitespace at its ends; a loop, as a regex anchored at the end is quadratic. */
function trimHtmlSpace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isHtmlSpace(text.charCodeAt(start))) start++;
  while (end > start && isHtmlSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

function isHtmlSpace(code: number): boolean {
  return code === SPACE || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}
