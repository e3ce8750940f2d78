import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The header every delivery carries: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export const SIGNATURE_HEADER = 'Mimamori-Signature';

/** How far a signature's time may be from the receiver's clock; replays older than this are refused. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** A new signing secret, shown to the user once: `whsec_` and 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The header value for `body` sent at `unixSeconds`, signed with `secret` (like Stripe's). */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${hmacHex(secret, unixSeconds, body)}`;
}

export type Verification = { ok: true } | { ok: false; reason: 'malformed' | 'stale' | 'signature' };

/**
 * What a receiver does with a delivery: the raw body exactly as received, the header, the secret.
 * Any one `v1` matching is enough, so a header may carry several during a rotation.
 */
export function verifySignature(
  secret: string,
  header: string,
  body: string,
  options: { nowSeconds?: number; toleranceSeconds?: number } = {},
): Verification {
  const parts = header.split(',').map((part) => part.trim().split('='));
  const t = parts.find(([key]) => key === 't')?.[1];
  const signatures = parts
    .filter(([key, value]) => key === 'v1' && value)
    .map(([, value]) => value as string);
  if (!t || !/^\d+$/.test(t) || signatures.length === 0) return { ok: false, reason: 'malformed' };
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(t)) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    return { ok: false, reason: 'stale' };
  }
  const expected = Buffer.from(hmacHex(secret, Number(t), body), 'hex');
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { ok: true } : { ok: false, reason: 'signature' };
}

function hmacHex(secret: string, unixSeconds: number, body: string): string {
  return createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
}
