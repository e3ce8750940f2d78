import type { ChatMessage } from '../port.ts';

/**
 * Chatwork takes a message body of 1 to 65,535 characters (docs/channels.md#chatwork). The
 * platform's counting unit is not documented, so the body is kept well under it in UTF-16 units,
 * which are never fewer than the characters a person sees.
 */
export const CHATWORK_BODY_LIMIT = 65_535;
const BODY_BUDGET = 60_000;
const CUT_MARK = { ja: '…（以下省略）', en: '… (cut; the rest is on the history page)' };

/**
 * Chatwork notation has no escape for a literal tag, so a `[` that would open one of its tags in
 * the user's own text (a page's diff can say anything) gets a zero-width space after it: the
 * reader sees the same text and the layout cannot be broken from inside.
 */
export function neutraliseNotation(text: string): string {
  return text.replace(
    /\[(?=\/?(?:info|title|hr|code|qt|To:|rp|piconname|picon|toall|dtext|preview|download|task)\b)/gi,
    '[\u200b',
  );
}

/**
 * The message in Chatwork notation: `[info][title]…[/title]` with the facts, a rule, the change
 * and the link. Only the change is ever cut; the title, the facts and the link always stay.
 */
export function chatworkBody(message: ChatMessage): string {
  const title = `[title]${neutraliseNotation(oneLine(message.title))}[/title]`;
  const facts = message.fields
    .filter((field) => field.value !== '')
    .map((field) => `${neutraliseNotation(field.label)}: ${neutraliseNotation(oneLine(field.value))}`)
    .join('\n');
  const link = message.link ? `${neutraliseNotation(message.link.label)}: ${message.link.url}` : '';
  const head = `[info]${title}${facts}`;
  const tail = `${link ? `\n${link}` : ''}[/info]`;
  const text = neutraliseNotation(message.body.trim());
  if (!text) return head + tail;
  const room = BODY_BUDGET - head.length - tail.length - '\n[hr]'.length;
  return `${head}\n[hr]${cut(text, room, CUT_MARK[message.lang])}${tail}`;
}

/** What goes with an uploaded picture (Chatwork shows it above the file). */
export function chatworkFileMessage(role: 'before' | 'after', lang: 'ja' | 'en'): string {
  if (lang === 'ja') return role === 'before' ? '変更前' : '変更後';
  return role === 'before' ? 'Before' : 'After';
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cuts on a code point boundary, never in the middle of a surrogate pair. */
function cut(text: string, room: number, mark: string): string {
  if (text.length <= room) return text;
  const points = Array.from(text.slice(0, Math.max(0, room - mark.length)));
  // slice may have split a pair: its lone high surrogate is the last "point".
  const last = points.at(-1);
  if (last && last.length === 1 && /[\uD800-\uDBFF]/.test(last)) points.pop();
  return `${points.join('')}${mark}`;
}
