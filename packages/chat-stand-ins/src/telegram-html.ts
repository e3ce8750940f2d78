/**
 * Telegram's HTML parse mode as the Bot API reads it (core.telegram.org/bots/api#html-style):
 * only its tags, every `<`, `>` and `&` of the text escaped, tags closed in order. The message
 * limits count the text after this parsing, so the stand-in parses to count, and to show the
 * message as Telegram would.
 */
export type HtmlToken =
  | { kind: 'text'; text: string }
  | { kind: 'open'; tag: string; href?: string }
  | { kind: 'close'; tag: string };

const TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'span',
  'tg-spoiler',
  'a',
  'code',
  'pre',
  'blockquote',
  'tg-emoji',
]);
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** The tokens of `html`, or Telegram's refusal ("Bad Request: can't parse entities: …"). */
export function parseTelegramHtml(html: string): { tokens: HtmlToken[] } | { error: string } {
  const tokens: HtmlToken[] = [];
  const open: string[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') tokens.push({ kind: 'text', text });
    text = '';
  };
  const refuse = (why: string, at: number) => ({
    error: `Bad Request: can't parse entities: ${why} at byte offset ${Buffer.byteLength(html.slice(0, at))}`,
  });
  for (let at = 0; at < html.length; ) {
    const char = html[at] ?? '';
    if (char === '&') {
      const entity = /^&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]+);/.exec(html.slice(at));
      const name = entity?.[1] ?? '';
      const decoded = name.startsWith('#x')
        ? String.fromCodePoint(Number.parseInt(name.slice(2), 16))
        : name.startsWith('#')
          ? String.fromCodePoint(Number(name.slice(1)))
          : NAMED[name];
      if (!entity || decoded === undefined) return refuse('Unsupported entity', at);
      text += decoded;
      at += entity[0].length;
      continue;
    }
    if (char === '>') return refuse('Unexpected end tag', at);
    if (char !== '<') {
      text += char;
      at += 1;
      continue;
    }
    const tag = /^<(\/?)([a-z-]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*>/.exec(html.slice(at));
    if (!tag || !TAGS.has(tag[2] ?? '')) return refuse(`Unsupported start tag "${tag?.[2] ?? ''}"`, at);
    flush();
    const name = tag[2] ?? '';
    if (tag[1] === '/') {
      if (open.pop() !== name) return refuse(`Unmatched end tag "${name}"`, at);
      tokens.push({ kind: 'close', tag: name });
    } else {
      open.push(name);
      const href = /href="([^"]*)"/.exec(tag[3] ?? '')?.[1];
      tokens.push(
        href === undefined ? { kind: 'open', tag: name } : { kind: 'open', tag: name, href: decode(href) },
      );
    }
    at += tag[0].length;
  }
  flush();
  if (open.length > 0)
    return {
      error: `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "${open.at(-1)}"`,
    };
  return { tokens };
}

/** What the reader sees: the text without tags, entities decoded. */
export function visibleText(tokens: readonly HtmlToken[]): string {
  return tokens.map((token) => (token.kind === 'text' ? token.text : '')).join('');
}

function decode(value: string): string {
  return value.replace(/&(lt|gt|amp|quot);/g, (_match, name: string) => NAMED[name] ?? '');
}
