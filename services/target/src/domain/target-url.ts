import { URL_MAX_LENGTH } from '@mimamori/http-api';

export const LABEL_MAX_LENGTH = 200;

/** A site URL the crawler can fetch: absolute http(s), of sensible length. Null when not. */
export function targetUrl(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.length > URL_MAX_LENGTH) return null;
  try {
    const url = new URL(trimmed);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (!url.hostname) return null;
    return url.href;
  } catch {
    return null;
  }
}
