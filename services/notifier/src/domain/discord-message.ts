import { imageFileName, type UpdateNotice } from './update-notice.ts';
import { areaName, matchedRuleLines, UPDATE_WORDS } from './update-wording.ts';
import { writtenTime } from './written-time.ts';

/** Discord's embed limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits). */
export const EMBED_LIMITS = { title: 256, description: 4096, fieldName: 256, fieldValue: 1024, total: 6000 };

/** A message's own text, above its embeds. */
const CONTENT_LIMIT = 2000;

export interface DiscordEmbed {
  title: string;
  url?: string;
  description: string;
  color: number;
  timestamp: string;
  fields: { name: string; value: string; inline?: boolean }[];
  image?: { url: string };
  thumbnail?: { url: string };
}

/** The `payload_json` of an execute-webhook call and the files sent beside it, in order. */
export interface DiscordMessage {
  payload: {
    /** An update's one line, above the embed. */
    content?: string;
    username: string;
    allowed_mentions: { parse: string[] };
    embeds: DiscordEmbed[];
    attachments: { id: number; filename: string; description: string }[];
  };
  files: { filename: string; data: Uint8Array; contentType: string }[];
}

function clip(text: string, limit: number, note: (shown: number, total: number) => string): string {
  if (text.length <= limit) return text;
  // The note is longest when it names the whole length twice; keep room for that.
  const room = Math.max(0, limit - note(text.length, text.length).length - 1);
  return `${text.slice(0, room)}\n${note(room, text.length)}`;
}

/**
 * Each area's diff in a ```diff block; past the limit the last block shown is cut and closed, and
 * a note says how much of the diffs was left out.
 */
function diffBlocks(notice: UpdateNotice, limit: number): string {
  const words = UPDATE_WORDS[notice.lang];
  const block = (area: UpdateNotice['areas'][number], text: string) =>
    `**${areaName(area, notice.lang)}**\n\`\`\`diff\n${text}\n\`\`\``;
  const whole = notice.areas.map((area) => block(area, area.diffText)).join('\n');
  if (whole.length <= limit) return whole;
  const total = notice.areas.reduce((sum, area) => sum + area.diffText.length, 0);
  const room = limit - words.trimmed(total, total).length - 1;
  const parts: string[] = [];
  let used = 0;
  let shown = 0;
  for (const area of notice.areas) {
    const frame = block(area, '').length + (parts.length > 0 ? 1 : 0);
    const fits = Math.min(area.diffText.length, room - used - frame);
    if (fits <= 0) break;
    parts.push(block(area, area.diffText.slice(0, fits)));
    used += frame + fits;
    shown += fits;
    if (fits < area.diffText.length) break;
  }
  return `${parts.join('\n')}\n${words.trimmed(shown, total)}`;
}

const cut = (text: string, limit: number) => (text.length <= limit ? text : `${text.slice(0, limit - 1)}…`);

/**
 * One embed: the label as title linking to the site, the diffs in the description (trimmed with a
 * note past Discord's limits), the matched rules and the time as fields; the after picture as
 * the embed image and the before one as its thumbnail, both uploaded as files.
 */
export function discordMessage(notice: UpdateNotice): DiscordMessage {
  const words = UPDATE_WORDS[notice.lang];
  const rules = matchedRuleLines(notice);
  const fields = [
    { name: words.site, value: cut(notice.url, EMBED_LIMITS.fieldValue) },
    { name: words.detectedAt, value: writtenTime(notice.detectedAt, notice.timezone, notice.lang) },
    {
      name: words.rules,
      value: clip(
        (rules.length > 0 ? rules : [words.noRules]).join('\n'),
        EMBED_LIMITS.fieldValue,
        words.trimmed,
      ),
    },
    ...(notice.historyUrl
      ? [{ name: words.history, value: cut(notice.historyUrl, EMBED_LIMITS.fieldValue) }]
      : []),
  ];
  const title = cut(notice.label || notice.url, EMBED_LIMITS.title);
  const fieldsLength = fields.reduce((sum, field) => sum + field.name.length + field.value.length, 0);
  // Whatever the other parts leave of the 6,000 characters an embed may hold.
  const descriptionLimit = Math.min(
    EMBED_LIMITS.description,
    EMBED_LIMITS.total - title.length - fieldsLength,
  );
  const description = diffBlocks(notice, descriptionLimit);
  const files = notice.images.map((image) => ({
    filename: imageFileName(image),
    data: image.data,
    contentType: image.contentType,
  }));
  const after = notice.images.find((image) => image.name === 'after');
  const before = notice.images.find((image) => image.name === 'before');
  const embed: DiscordEmbed = {
    title,
    ...(/^https?:\/\//.test(notice.url) ? { url: notice.url } : {}),
    description,
    // The product's teal (web/src/styles.css --color-accent).
    color: 0x0f766e,
    timestamp: notice.detectedAt.toISOString(),
    fields,
    ...(after ? { image: { url: `attachment://${imageFileName(after)}` } } : {}),
    ...(before ? { thumbnail: { url: `attachment://${imageFileName(before)}` } } : {}),
  };
  return {
    payload: {
      content: cut(notice.summary, CONTENT_LIMIT),
      username: 'Mimamori',
      allowed_mentions: { parse: [] },
      embeds: [embed],
      attachments: notice.images.map((image, id) => ({
        id,
        filename: imageFileName(image),
        description: words[image.name],
      })),
    },
    files,
  };
}

/** The same message with no files and no embed pictures referring to them. */
export function withoutPictures(message: DiscordMessage): DiscordMessage {
  return {
    payload: {
      ...message.payload,
      attachments: [],
      embeds: message.payload.embeds.map(({ image: _image, thumbnail: _thumbnail, ...embed }) => embed),
    },
    files: [],
  };
}
