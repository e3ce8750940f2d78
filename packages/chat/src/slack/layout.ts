import type { ChatMessage } from '../port.ts';

/**
 * Slack's documented Block Kit limits (docs.slack.dev block reference): the stand-in enforces the
 * same figures, so a message laid out here passes both.
 */
export const SLACK_LIMITS = {
  blocks: 50,
  sectionText: 3_000,
  fieldText: 2_000,
  fieldsPerSection: 10,
  /** chat.postMessage truncates `text` after this; Slack recommends 4,000. */
  text: 40_000,
  /**
   * Not documented: messages whose blocks carry about 13,000 characters were refused with
   * `msg_blocks_too_long` (slackapi/bolt-js#2509). The stand-in refuses above this.
   */
  blocksText: 12_000,
} as const;

/** Each piece of the diff: the reference's advice, well under the section's 3,000. */
const BODY_SECTION_CHARS = 2_500;
/** Three pieces: ~7,500 characters of diff keep the whole message clear of `msg_blocks_too_long`. */
const BODY_SECTIONS = 3;
const TITLE_CHARS = 300;
/** The fallback `text` (notifications, screen readers) stays under Slack's recommended 4,000. */
const FALLBACK_CHARS = 3_000;

export type SlackBlock = Record<string, unknown>;

export interface SlackLayout {
  /** The fallback shown in notifications and where blocks cannot be shown. */
  text: string;
  blocks: SlackBlock[];
}

/**
 * A message as Slack blocks: the title in bold, the facts as a section's fields, the diff in
 * plain-text sections of at most 2,500 characters (what does not fit is left to the history
 * page, which the last block links to), and a fallback `text` that always names the title and link.
 * Only section and context blocks: `files.completeUploadExternal` refuses some other block types
 * when the message goes with pictures.
 */
export function slackLayout(message: ChatMessage): SlackLayout {
  const blocks: SlackBlock[] = [
    { type: 'section', text: { type: 'mrkdwn', text: `*${cutEscaped(message.title, TITLE_CHARS)}*` } },
  ];
  for (let start = 0; start < message.fields.length; start += SLACK_LIMITS.fieldsPerSection) {
    blocks.push({
      type: 'section',
      fields: message.fields.slice(start, start + SLACK_LIMITS.fieldsPerSection).map((field) => {
        const label = `*${cutEscaped(field.label, 100)}*\n`;
        return {
          type: 'mrkdwn',
          text: label + cutEscaped(field.value, SLACK_LIMITS.fieldText - label.length),
        };
      }),
    });
  }
  // The link and a possible "continued" note come after the diff: leave them room within 50 blocks.
  const room = Math.min(BODY_SECTIONS, SLACK_LIMITS.blocks - blocks.length - 2);
  const pieces = splitText(message.body.trim(), BODY_SECTION_CHARS, room);
  for (const piece of pieces.pieces) {
    blocks.push({ type: 'section', text: { type: 'plain_text', text: piece, emoji: false } });
  }
  if (pieces.cut) {
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: escapeMrkdwn(continuedNote(message.lang)) }],
    });
  }
  if (message.link) {
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `<${linkTarget(message.link.url)}|${cutEscaped(message.link.label, 200)}>`,
      },
    });
  }
  return { text: fallbackText(message), blocks };
}

function fallbackText(message: ChatMessage): string {
  const lines = [message.title, ...message.fields.map((field) => `${field.label}: ${field.value}`)];
  const link = message.link ? `\n${message.link.url}` : '';
  // The link is never cut: the title and facts give way first.
  const head = codePoints(lines.join('\n'));
  const room = FALLBACK_CHARS - codePoints(link).length;
  const kept = head.length > room ? `${head.slice(0, room - 1).join('')}…` : head.join('');
  return escapeMrkdwn(kept) + link;
}

export function continuedNote(lang: ChatMessage['lang']): string {
  return lang === 'ja' ? '…(続きは履歴ページで)' : '… (the rest is on the history page)';
}

/**
 * Text cut into at most `count` pieces of at most `size` characters (code points, so no
 * surrogate pair is split), at a line break when one falls in a piece's last fifth.
 */
export function splitText(text: string, size: number, count: number): { pieces: string[]; cut: boolean } {
  const chars = codePoints(text);
  const pieces: string[] = [];
  let at = 0;
  while (at < chars.length && pieces.length < count) {
    let end = Math.min(chars.length, at + size);
    if (end < chars.length) {
      const newline = chars.lastIndexOf('\n', end - 1);
      if (newline >= at + Math.floor(size * 0.8)) end = newline + 1;
    }
    const piece = chars.slice(at, end).join('');
    if (piece.trim() !== '') pieces.push(piece);
    at = end;
  }
  return { pieces, cut: at < chars.length };
}

/** Slack's mrkdwn takes `&`, `<` and `>` only as entities (docs.slack.dev "Formatting text"). */
export function escapeMrkdwn(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** Escaped text of at most `max` characters once escaped, with an ellipsis where it was cut. */
function cutEscaped(text: string, max: number): string {
  const escaped = escapeMrkdwn(text);
  if (escaped.length <= max) return escaped;
  let out = '';
  for (const char of codePoints(text)) {
    const next = escapeMrkdwn(char);
    if (out.length + next.length > max - 1) break;
    out += next;
  }
  return `${out}…`;
}

/** A URL inside `<…|…>`: the characters that would end the link are percent-encoded. */
function linkTarget(url: string): string {
  return url.replaceAll('|', '%7C').replaceAll('<', '%3C').replaceAll('>', '%3E').replaceAll('&', '&amp;');
}

function codePoints(text: string): string[] {
  return Array.from(text);
}
