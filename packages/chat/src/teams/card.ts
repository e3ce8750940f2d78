import type { ChatMessage } from '../port.ts';

/**
 * Teams refuses a webhook post over about 28 KB ("Request Entity Too Large", Microsoft's
 * connector docs); the card is kept under 27 KiB of UTF-8 JSON so the envelope's own bytes and
 * rounding leave room. The stand-in refuses above 28 KiB.
 */
export const TEAMS_PAYLOAD_BYTES = 27 * 1024;
const TITLE_CHARS = 300;
const FIELD_CHARS = 500;

export type TeamsPayload = {
  type: 'message';
  attachments: [{ contentType: string; contentUrl: null; content: Record<string, unknown> }];
};

/**
 * A message as the Workflows template's envelope around an Adaptive Card 1.4 (the highest
 * version Workflows is known to show): the title, the facts, the diff, the pictures by their
 * public URLs (Teams takes no upload through this webhook, and a data URI would not fit), and the
 * link as the card's button. Texts go in TextRuns, which Teams does not read as Markdown, so a
 * diff's leading "-" stays a "-". The diff is cut to what fits in the size limit; the title and the
 * link never are.
 */
export function teamsPayload(message: ChatMessage): TeamsPayload {
  const body = Array.from(message.body.trim());
  const whole = build(message, body.join(''), false);
  if (size(whole) <= TEAMS_PAYLOAD_BYTES) return whole;
  // The longest head of the diff that fits, by halving.
  let low = 0;
  let high = body.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (size(build(message, body.slice(0, middle).join(''), true)) <= TEAMS_PAYLOAD_BYTES) low = middle;
    else high = middle - 1;
  }
  return build(message, body.slice(0, low).join(''), true);
}

export function payloadBytes(payload: TeamsPayload): number {
  return size(payload);
}

function build(message: ChatMessage, diff: string, cut: boolean): TeamsPayload {
  const items: Record<string, unknown>[] = [
    textBlock(cutTo(message.title, TITLE_CHARS), { size: 'Medium', weight: 'Bolder' }),
  ];
  if (message.fields.length > 0) {
    items.push({
      type: 'FactSet',
      facts: message.fields.map((field) => ({
        title: cutTo(field.label, 100),
        value: cutTo(field.value, FIELD_CHARS),
      })),
    });
  }
  if (diff !== '') items.push(textBlock(diff, { fontType: 'Monospace', spacing: 'Medium' }));
  if (cut) items.push(textBlock(continuedNote(message.lang), { isSubtle: true, size: 'Small' }));
  for (const image of message.images) {
    if (!image.publicUrl) continue;
    const label = pictureLabel(image.role, message.lang);
    items.push(textBlock(label, { weight: 'Bolder', size: 'Small', spacing: 'Medium' }));
    items.push({ type: 'Image', url: image.publicUrl, altText: label, size: 'Stretch' });
  }
  const content: Record<string, unknown> = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    msteams: { width: 'Full' },
    body: items,
  };
  if (message.link) {
    content.actions = [
      { type: 'Action.OpenUrl', title: cutTo(message.link.label, 100), url: message.link.url },
    ];
  }
  return {
    type: 'message',
    attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content }],
  };
}

function textBlock(text: string, style: Record<string, unknown>): Record<string, unknown> {
  const { spacing, ...run } = style;
  return {
    type: 'RichTextBlock',
    ...(spacing ? { spacing } : {}),
    inlines: [{ type: 'TextRun', text, ...run }],
  };
}

function pictureLabel(role: 'before' | 'after', lang: ChatMessage['lang']): string {
  if (role === 'before') return lang === 'ja' ? '変更前' : 'Before';
  return lang === 'ja' ? '変更後' : 'After';
}

function continuedNote(lang: ChatMessage['lang']): string {
  return lang === 'ja' ? '…(続きは履歴ページで)' : '… (the rest is on the history page)';
}

function cutTo(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

function size(payload: TeamsPayload): number {
  return Buffer.byteLength(JSON.stringify(payload), 'utf8');
}
