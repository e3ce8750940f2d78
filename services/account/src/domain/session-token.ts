import { createHash } from 'node:crypto';

/** Sessions are looked up by the SHA-256 of their token; the token itself is never stored. */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
