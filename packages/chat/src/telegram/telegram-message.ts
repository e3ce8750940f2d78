import { cutText, fitBody, LINE_LIMIT } from '../fit-text.ts';
import { imageSize } from '../image-size.ts';
import type { ChatImage, ChatMessage } from '../port.ts';

/** Telegram's documented limits (core.telegram.org/bots/api; docs/channels.md#telegram). */
export const TELEGRAM_LIMITS = {
  /** sendMessage's text after entity parsing, i.e. what the reader sees, in UTF-16 units. */
  textLength: 4_096,
  captionLength: 1_024,
  albumMin: 2,
  albumMax: 10,
  photoBytes: 10 * 1024 * 1024,
  /** A photo's width + height. */
  photoSides: 10_000,
  photoRatio: 20,
} as const;

const ROLE_CAPTION = {
  ja: { before: '変更前', after: '変更後' },
  en: { before: 'Before', after: 'After' },
} as const;

export interface TelegramPhoto {
  /** The multipart field the photo travels in, named by `attach://<field>` in an album. */
  field: string;
  caption: string;
  image: ChatImage;
}

/**
 * The text for sendMessage in HTML parse mode: the title and the facts' labels in bold, the
 * change cut to fit, the link as a link. The limit counts what the reader sees, so the cut is
 * measured on the plain text and only then escaped.
 */
export function telegramText(message: ChatMessage): string {
  const title = cutText(message.title, LINE_LIMIT);
  const fields = message.fields.map((field) => ({
    label: cutText(field.label, LINE_LIMIT),
    value: cutText(field.value, LINE_LIMIT),
  }));
  const linkLabel = message.link ? cutText(message.link.label, LINE_LIMIT) : '';
  const headLength = [title, ...fields.map((field) => `${field.label}: ${field.value}`)].join('\n').length;
  const separators = 2 + (message.link ? 2 : 0);
  const body = fitBody(
    message.body.trim(),
    headLength + linkLabel.length + separators,
    TELEGRAM_LIMITS.textLength,
  );
  const head = [
    `<b>${escapeHtml(title)}</b>`,
    ...fields.map((field) => `<b>${escapeHtml(field.label)}</b>: ${escapeHtml(field.value)}`),
  ].join('\n');
  const link = message.link ? `<a href="${escapeHtml(message.link.url)}">${escapeHtml(linkLabel)}</a>` : '';
  return [head, escapeHtml(body), link].filter((part) => part !== '').join('\n\n');
}

/** The pictures Telegram takes as photos, each captioned with its role; one over the photo limits is left out. */
export function telegramPhotos(message: ChatMessage): TelegramPhoto[] {
  return message.images
    .filter(fitsTelegramPhoto)
    .slice(0, TELEGRAM_LIMITS.albumMax)
    .map((image, index) => ({
      field: `photo${index}`,
      caption: ROLE_CAPTION[message.lang][image.role],
      image,
    }));
}

export function fitsTelegramPhoto(image: ChatImage): boolean {
  if (image.data.length > TELEGRAM_LIMITS.photoBytes) return false;
  const size = imageSize(image.data);
  if (!size || size.width === 0 || size.height === 0) return false;
  const ratio = Math.max(size.width / size.height, size.height / size.width);
  return size.width + size.height <= TELEGRAM_LIMITS.photoSides && ratio <= TELEGRAM_LIMITS.photoRatio;
}

/** What HTML parse mode needs escaped: `<`, `>` and `&` (and `"` inside an href). */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
