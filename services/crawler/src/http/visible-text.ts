import type { AnyNode, Element } from 'domhandler';

/**
 * HTTP mode's stand-in for what a person sees, with no layout engine to ask:
 * - script, style, noscript, template, head-only elements, form inputs, embedded objects and
 *   anything with the `hidden` attribute, `aria-hidden="true"` or an inline `display:none` /
 *   `visibility:hidden` style are skipped (stylesheet rules are not applied); images count
 *   by their alt text;
 * - block-level elements, `<br>` and table cells break lines, as the browser's innerText does;
 * - runs of whitespace collapse to one space, each line is trimmed and empty lines dropped.
 * Text inside iframes comes from fetching the iframe itself when an area asks for it.
 */
export function visibleText(nodes: readonly AnyNode[]): string {
  const lines: string[] = [];
  let line = '';
  const breakLine = () => {
    const collapsed = line.replace(/\s+/g, ' ').trim();
    if (collapsed) lines.push(collapsed);
    line = '';
  };
  const walk = (node: AnyNode) => {
    if (node.type === 'text') {
      line += node.data;
      return;
    }
    if (node.type !== 'tag' && node.type !== 'root' && node.type !== 'script' && node.type !== 'style')
      return;
    if (node.type !== 'root' && isHidden(node as Element)) return;
    const name = node.type === 'root' ? '' : (node as Element).name;
    if (name === 'br') {
      breakLine();
      return;
    }
    if (name === 'img') {
      const alt = (node as Element).attribs.alt;
      if (alt) line += ` ${alt} `;
      return;
    }
    const block = BLOCK.has(name);
    if (block) breakLine();
    else if (CELL.has(name)) line += ' ';
    for (const child of (node as Element).children) walk(child);
    if (block) breakLine();
    else if (CELL.has(name)) line += ' ';
  };
  for (const node of nodes) walk(node);
  breakLine();
  return lines.join('\n');
}

const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'title',
  'meta',
  'link',
  'iframe',
  'object',
  'svg',
  'canvas',
  'select',
  'datalist',
]);

const BLOCK = new Set([
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
  'li',
  'main',
  'nav',
  'ol',
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
  'option',
  'legend',
  'menu',
]);

const CELL = new Set(['td', 'th']);

function isHidden(element: Element): boolean {
  if (SKIPPED.has(element.name)) return true;
  const attributes = element.attribs;
  if ('hidden' in attributes) return true;
  if (attributes['aria-hidden'] === 'true') return true;
  if (element.name === 'input') return true;
  const style = attributes.style;
  return style !== undefined && /(display\s*:\s*none|visibility\s*:\s*hidden)/i.test(style);
}
