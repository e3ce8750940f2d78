import { randomBytes } from 'node:crypto';
import { hashToken } from './one-time-token.ts';

export const SESSION_LIFETIME_MS = 30 * 24 * 3_600_000;

/** Sessions are looked up by the SHA-256 of their token; the token itself is never stored. */
export function hashSessionToken(token: string): string {
  return hashToken(token);
}

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}
