import { Parser } from 'htmlparser2';
import { withoutExcludedElements } from './excluded-elements.ts';
import { BLOCK_ELEMENTS, TABLE_CELLS, visibleText } from './visible-text.ts';

/** What the crawler captured for an area: its markup and its visible text (see visibleText). */
export interface AreaSnapshot {
  readonly html?: string;
  /**
   * The browser's innerText, or in HTTP mode visibleText(html); preferred over text derived from `html`
   * when tags are stripped.
   */
  readonly text?: string;
}

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

/**
 * The content compared for an area: its visible text when tags are stripped, otherwise its markup in a
 * canonical form (entities decoded then escaped minimally, attributes sorted, comments dropped, one
 * block element per line) so that '&amp;' against '&' or reordered attributes are not changes.
 */
export function extractAreaContent(
  snapshot: AreaSnapshot,
  stripTags: boolean,
  excludeElements: readonly string[] = [],
): string {
  // Excluded elements are cut out of the markup, and the text read from what is left: the
  // browser's text holds theirs and cannot be taken apart again.
  if (excludeElements.length > 0 && snapshot.html !== undefined) {
    const kept = withoutExcludedElements(snapshot.html, excludeElements);
    return stripTags ? visibleText(kept) : canonicalMarkup(kept);
  }
  if (stripTags) return snapshot.text ?? visibleText(snapshot.html ?? '');
  return snapshot.html === undefined ? (snapshot.text ?? '') : canonicalMarkup(snapshot.html);
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
        if (ownLine(name)) breakLine();
        parts.push(`<${name}${serialiseAttributes(attributes)}>`);
        if (RAW_TEXT.has(name)) rawTextDepth++;
      },
      onclosetag(name) {
        if (RAW_TEXT.has(name)) rawTextDepth--;
        if (!VOID.has(name)) parts.push(`</${name}>`);
        if (ownLine(name)) breakLine();
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

// Table cells too stand on their own lines in markup, so that a diff of a table shows the cell changed.
function ownLine(name: string): boolean {
  return BLOCK_ELEMENTS.has(name) || TABLE_CELLS.has(name);
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
