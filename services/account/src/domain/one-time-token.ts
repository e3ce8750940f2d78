import { createHash, randomBytes } from 'node:crypto';

/** What a mailed link is for; each kind has its own lifetime. */
export type TokenKind =
  | 'verify_email'
  | 'verify_mail'
  | 'change_email'
  | 'reset_password'
  | 'support_follow_up'
  | 'workspace_invitation';

const HOUR = 3_600_000;
export const TOKEN_LIFETIME_MS: Record<TokenKind, number> = {
  verify_email: 24 * HOUR,
  verify_mail: 24 * HOUR,
  change_email: 24 * HOUR,
  reset_password: HOUR,
  support_follow_up: 7 * 24 * HOUR,
  workspace_invitation: 7 * 24 * HOUR,
};

export interface IssuedToken {
  /** Goes into the link only; never stored. */
  token: string;
  hash: string;
  kind: TokenKind;
  issuedAt: Date;
  expiresAt: Date;
}

/** Session and link tokens are stored as their SHA-256 only: a database leak gives no usable link. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export function issueToken(kind: TokenKind, now: Date): IssuedToken {
  const token = randomBytes(32).toString('base64url');
  return {
    token,
    hash: hashToken(token),
    kind,
    issuedAt: now,
    expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_MS[kind]),
  };
}

/** Lets a link through to the store only when it has the shape we issue. */
export function looksLikeToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}
