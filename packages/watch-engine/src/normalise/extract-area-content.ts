import { Parser } from 'htmlparser2';

/** What the crawler captured for an area: its markup and, when a browser rendered it, its visible text. */
export interface AreaSnapshot {
  readonly html?: string;
  /** The rendered visible text (innerText); preferred over text derived from `html` when tags are stripped. */
  readonly text?: string;
}

// Elements that start a new line in rendered text (and in the canonical markup, so diffs stay per block).
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
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
  'legend',
  'li',
  'main',
  'nav',
  'ol',
  'option',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
]);
// Elements whose content a person never reads on the page.
const INVISIBLE = new Set(['head', 'iframe', 'noscript', 'object', 'script', 'style', 'template', 'title']);
const PREFORMATTED = new Set(['pre', 'textarea', 'listing', 'plaintext']);
const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes']);
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
const HTML_SPACE_RUN = /[\t\n\f\r ]+/g;
const UNTIDY_HTML_SPACE = /[\t\n\f\r]| {2}/;
const HTML_SPACE = new Set(['\t', '\n', '\f', '\r', ' ']);

/**
 * The content compared for an area: its visible text when tags are stripped, otherwise its markup in a
 * canonical form (entities decoded then escaped minimally, attributes sorted, comments dropped, one
 * block element per line) so that '&amp;' against '&' or reordered attributes are not changes.
 */
export function extractAreaContent(snapshot: AreaSnapshot, stripTags: boolean): string {
  if (stripTags) return snapshot.text ?? visibleText(snapshot.html ?? '');
  return snapshot.html === undefined ? (snapshot.text ?? '') : canonicalMarkup(snapshot.html);
}

/** Text as a browser renders it, roughly: block elements on their own lines, hidden elements left out. */
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
 * or character is split: the pieces joined are exactly visibleText(html).
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

function visibleTextParser(append: (text: string) => void): Parser {
  let hiddenDepth = 0;
  let preformattedDepth = 0;
  return new Parser(
    {
      onopentag(name) {
        if (INVISIBLE.has(name)) hiddenDepth++;
        if (PREFORMATTED.has(name)) preformattedDepth++;
        if (hiddenDepth > 0) return;
        if (name === 'br' || BLOCK.has(name)) append('\n');
      },
      onclosetag(name) {
        if (INVISIBLE.has(name)) hiddenDepth--;
        if (PREFORMATTED.has(name)) preformattedDepth--;
        if (hiddenDepth === 0 && BLOCK.has(name)) append('\n');
      },
      ontext(data) {
        if (hiddenDepth > 0) return;
        append(preformattedDepth > 0 ? data : collapseHtmlSpace(data));
      },
    },
    { decodeEntities: true },
  );
}

/** Runs of HTML whitespace as one space, as `data.replace(HTML_SPACE_RUN, ' ')`, sparing most calls. */
function collapseHtmlSpace(data: string): string {
  // The line breaks between block elements come one character at a time.
  if (data.length === 1) return HTML_SPACE.has(data) ? ' ' : data;
  // Most text has single spaces only: testing first spares building the same string again.
  return UNTIDY_HTML_SPACE.test(data) ? data.replace(HTML_SPACE_RUN, ' ') : data;
}

/** Markup re-serialised so that equivalent spellings of the same document compare equal. */
export function canonicalMarkup(html: string): string {
  const parts: string[] = [];
  let rawTextDepth = 0;
  // The line breaks put around blocks must not turn into text when the markup is parsed again, so
  // spaces next to them are dropped: the result is stable under a second pass.
  const breakLine = () => {
    for (let last = parts.at(-1); last !== undefined; last = parts.at(-1)) {
      const trimmed = last.trimEnd();
      if (trimmed !== '' || last.endsWith('\n')) {
        if (!last.endsWith('\n')) parts[parts.length - 1] = trimmed;
        break;
      }
      parts.pop();
    }
    parts.push('\n');
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (BLOCK.has(name)) breakLine();
        parts.push(`<${name}${serialiseAttributes(attributes)}>`);
        if (RAW_TEXT.has(name)) rawTextDepth++;
      },
      onclosetag(name) {
        if (RAW_TEXT.has(name)) rawTextDepth--;
        if (!VOID.has(name)) parts.push(`</${name}>`);
        if (BLOCK.has(name)) breakLine();
      },
      ontext(data) {
        let collapsed = data.replace(HTML_SPACE_RUN, ' ');
        if (parts.length === 0 || parts.at(-1)?.endsWith('\n')) collapsed = collapsed.trimStart();
        if (collapsed !== '') parts.push(rawTextDepth > 0 ? collapsed : escapeText(collapsed));
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return parts.join('');
}

function serialiseAttributes(attributes: Record<string, string>): string {
  return Object.keys(attributes)
    .sort()
    .map((name) => {
      const value = attributes[name] ?? '';
      return value === '' ? ` ${name}` : ` ${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
    })
    .join('');
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
