import { IMAGE_LINK_PATH } from '@mimamori/image-links';
import { cutText, fitBody, LINE_LIMIT } from '../fit-text.ts';
import type { ChatImage, ChatMessage } from '../port.ts';

/** LINE's documented limits (developers.line.biz Messaging API reference; docs/channels.md#line). */
export const LINE_LIMITS = {
  messagesPerPush: 5,
  /** A text message's characters, counted in UTF-16 units. */
  textLength: 5_000,
  imageUrlLength: 2_000,
  /** The preview image's bytes (the original may be 10 MB). */
  previewBytes: 1_000_000,
} as const;

export type LineMessage =
  | { type: 'text'; text: string }
  | { type: 'image'; originalContentUrl: string; previewImageUrl: string };

/**
 * One message laid out for LINE: a plain-text message (LINE has no markup in text messages)
 * with the title, the facts, the change cut to fit and the link, then the pictures as image
 * messages by their public URLs. A picture is left out when it has no public URL LINE could
 * fetch, or no preview of at most 1 MB: the link still leads to it.
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
  const images: LineMessage[] = [];
  for (const image of message.images) {
    const urls = lineImageUrls(image);
    if (urls && images.length < LINE_LIMITS.messagesPerPush - 1) images.push({ type: 'image', ...urls });
  }
  return [{ type: 'text', text }, ...images];
}

/**
 * The picture's URL and its preview's. The product's image links serve the picture as a JPEG of
 * at most 10 MB at `?jpeg=1` and a preview of at most 1 MB at `?preview=1` (the gateway's /i/
 * routes): LINE takes only JPEG and PNG, and the stored picture may be WebP. Any other URL is its
 * own preview when the picture is within 1 MB.
 */
function lineImageUrls(image: ChatImage): { originalContentUrl: string; previewImageUrl: string } | null {
  const original = fetchableByLine(image.publicUrl);
  if (!original) return null;
  if (original.pathname.startsWith(IMAGE_LINK_PATH)) {
    const variant = (name: 'jpeg' | 'preview') => {
      const url = new URL(original);
      url.search = '';
      url.searchParams.set(name, '1');
      return url.toString();
    };
    const urls = { originalContentUrl: variant('jpeg'), previewImageUrl: variant('preview') };
    return urls.previewImageUrl.length <= LINE_LIMITS.imageUrlLength &&
      urls.originalContentUrl.length <= LINE_LIMITS.imageUrlLength
      ? urls
      : null;
  }
  if (image.data.length > LINE_LIMITS.previewBytes) return null;
  return { originalContentUrl: original.toString(), previewImageUrl: original.toString() };
}

function fetchableByLine(publicUrl: string | null): URL | null {
  if (publicUrl === null || publicUrl.length > LINE_LIMITS.imageUrlLength) return null;
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    return null;
  }
  // LINE fetches over HTTPS only; a loopback http address is the local product with its stand-in.
  const fetchable = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  return fetchable ? url : null;
}

export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
