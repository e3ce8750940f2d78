import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * LINE's webhook signature: `X-Line-Signature` is the Base64 HMAC-SHA256 of the raw request body
 * keyed with the channel secret (developers.line.biz, "Verify webhook signature"). The stand-in
 * signs with the same function.
 */
export function lineSignature(channelSecret: string, rawBody: Buffer): string {
  return createHmac('sha256', channelSecret).update(rawBody).digest('base64');
}

/** Whether `signature` is the body's, compared in constant time. */
export function validLineSignature(
  channelSecret: string,
  rawBody: Buffer,
  signature: string | undefined,
): boolean {
  if (!signature || channelSecret === '') return false;
  const expected = Buffer.from(lineSignature(channelSecret, rawBody));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A UUID (version 5 layout) named by the delivery: every try of one delivery sends the same `X-Line-Retry-Key`. */
export function lineRetryKey(deliveryId: string): string {
  const hash = createHash('sha1').update('mimamori-line-retry-key:').update(deliveryId).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
