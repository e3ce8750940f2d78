import type { AccountDeps } from '../account-deps.ts';
import type { SecurityPort } from './security-port.ts';

/** What the two-factor, passkey and session-list use cases take beside the account's own. */
export interface SecurityDeps extends AccountDeps {
  security: SecurityPort;
  /** The TOTP secret sealed with the secret box, bound to its user; opened only to check a code. */
  sealTotp(secret: string, userId: string): string;
  openTotp(sealed: string, userId: string): string;
}

/** Where a sign-in comes from, as the gateway saw it. */
export interface SignInClient {
  clientAddress: string;
  userAgent: string;
  /** The browser's device cookie, empty when it has none. */
  deviceToken: string;
}
