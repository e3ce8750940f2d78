/**
 * Cutting a message's text to a platform's limit without losing what must stay. Lengths are in
 * UTF-16 units, as LINE and Telegram count them, and a surrogate pair is never split.
 */
export const ELLIPSIS = '…';
/** A title or a fact's value longer than this is cut: it is a line, not the change itself. */
export const LINE_LIMIT = 300;

/** `text` in at most `limit` UTF-16 units, ending in "…" when it had to be cut. */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  if (limit < ELLIPSIS.length) return '';
  let end = limit - ELLIPSIS.length;
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  return `${text.slice(0, end)}${ELLIPSIS}`;
}

/**
 * The body cut to the room the fixed parts leave (`fixedLength` of `limit`). Nothing of the body
 * is kept when less than a few characters would be: a lone "…" says nothing.
 */
export function fitBody(body: string, fixedLength: number, limit: number): string {
  const room = limit - fixedLength;
  if (body.length <= room) return body;
  return room < 8 ? '' : cutText(body, room);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
