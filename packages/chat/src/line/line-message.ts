import { cutText, fitBody, LINE_LIMIT } from '../fit-text.ts';
import type { ChatImage, ChatMessage } from '../port.ts';

/** LINE's documented limits (developers.line.biz Messaging API reference; docs/channels.md#line). */
export const LINE_LIMITS = {
  messagesPerPush: 5,
  /** A text message's characters, counted in UTF-16 units. */
  textLength: 5_000,
  imageUrlLength: 2_000,
  /** The preview image's bytes; the original may be 10 MB, but the product has one picture for both. */
  previewBytes: 1_000_000,
} as const;

export type LineMessage =
  | { type: 'text'; text: string }
  | { type: 'image'; originalContentUrl: string; previewImageUrl: string };

/**
 * One message laid out for LINE: a plain-text message (LINE has no markup in text messages)
 * with the title, the facts, the change cut to fit and the link, then the pictures as image
 * messages by their public URLs. A picture is left out when it has no public URL LINE could
 * fetch, or when it is over the preview's 1 MB (the product keeps no smaller copy): the link
 * still leads to it.
 */
export function lineMessages(message: ChatMessage): LineMessage[] {
  const head = [
    cutText(message.title, LINE_LIMIT),
    ...message.fields.map((field) => `${field.label}: ${cutText(field.value, LINE_LIMIT)}`),
  ].join('\n');
  const tail = message.link ? `${cutText(message.link.label, LINE_LIMIT)}\n${message.link.url}` : '';
  const separators = (tail ? 2 : 0) + 2;
  const body = fitBody(message.body.trim(), head.length + tail.length + separators, LINE_LIMITS.textLength);
  const text = cutText([head, body, tail].filter((part) => part !== '').join('\n\n'), LINE_LIMITS.textLength);
  const images = message.images
    .filter(fetchableByLine)
    .slice(0, LINE_LIMITS.messagesPerPush - 1)
    .map((image): LineMessage => {
      const url = image.publicUrl ?? '';
      return { type: 'image', originalContentUrl: url, previewImageUrl: url };
    });
  return [{ type: 'text', text }, ...images];
}

function fetchableByLine(image: ChatImage): boolean {
  if (image.publicUrl === null || image.publicUrl.length > LINE_LIMITS.imageUrlLength) return false;
  if (image.data.length > LINE_LIMITS.previewBytes) return false;
  let url: URL;
  try {
    url = new URL(image.publicUrl);
  } catch {
    return false;
  }
  // LINE fetches over HTTPS only; a loopback http address is the local product with its stand-in.
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
