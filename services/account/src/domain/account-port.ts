import type { QuietHours } from '@mimamori/quiet-hours';
import type { AccountMail } from './account-mail.ts';
import type { AccountRecord, DiscordState, SubscriptionRecord } from './account-record.ts';
import type { ApiAccessPort } from './api-access.ts';
import type { WorkspaceRole } from './workspace-role.ts';

export interface NewAccount {
  id: string;
  email: string | null;
  /** Null for an X user until they set one. */
  passwordHash: string | null;
  name: string;
  lang: 'ja' | 'en';
  /** Decided by the sign-up language (currencyForLang); billing fixes it at the provider. */
  currency: 'JPY' | 'USD';
  timezone: string | null;
  xSubject: string | null;
  createdAt: Date;
  subscription: SubscriptionRecord;
}

export interface SignInIdentity {
  id: string;
  passwordHash: string | null;
  emailVerified: boolean;
  deleted: boolean;
  lang: 'ja' | 'en';
  email: string | null;
}

export interface ProfileChange {
  name?: string;
  lang?: 'ja' | 'en';
  timezone?: string;
  currency?: 'JPY' | 'USD';
  /** When set, the save applies only over this revision (docs/product.md#edit-conflicts). */
  expectedRevision?: number;
}

export interface SessionUser {
  userId: string;
  personId: string;
  role: WorkspaceRole | null;
  deleted: boolean;
}

export type TokenUse = { userId: string; subject: string } | 'used' | null;

/** What the account's use cases need from storage; each call is one transaction. */
export interface AccountPort extends ApiAccessPort {
  /** Stores the account, its trial, AccountCreated and (when given) its first mail together. */
  insertAccount(account: NewAccount, mail?: AccountMail): Promise<'created' | 'email_taken'>;
  findByEmail(email: string): Promise<SignInIdentity | null>;
  findByXSubject(subject: string): Promise<SignInIdentity | null>;
  loadAccount(userId: string): Promise<AccountRecord | null>;
  queueMail(mail: AccountMail): Promise<void>;

  /**
   * Live session → its workspace (`userId`, the id every service stores), the signed-in person and
   * the person's role there; `deleted` when the workspace ended but the session remains. A session
   * whose workspace the person no longer belongs to falls back to the person's own workspace;
   * `role` is null when the person belongs to neither.
   */
  findSession(tokenHash: string, now: Date): Promise<SessionUser | null>;
  createSession(
    session: { userId: string; tokenHash: string; createdAt: Date; expiresAt: Date },
    replacedTokenHash: string | null,
  ): Promise<void>;
  deleteSession(tokenHash: string): Promise<void>;

  /**
   * Counts the failures since `since` and, unless `isThrottled` says stop, records this attempt
   * as a failure, both under a lock on the account key: parallel attempts cannot all slip
   * under the limit. Returns the attempt's id, or null when throttled.
   */
  beginSignInAttempt(
    attempt: { accountKey: string; clientAddress: string; at: Date; since: Date },
    isThrottled: (failures: { account: number; address: number }) => boolean,
  ): Promise<string | null>;
  /** A successful attempt does not count as a failure. */
  clearSignInAttempt(attemptId: string): Promise<void>;

  /** Marks the token used and applies its effect, atomically; 'used' when already spent. */
  useVerificationToken(tokenHash: string, now: Date): Promise<TokenUse>;
  /** Sets the password from a reset token and ends every session of the user. */
  resetPassword(tokenHash: string, passwordHash: string, now: Date): Promise<boolean>;
  /** Sets the password and ends the user's other sessions. */
  setPassword(userId: string, passwordHash: string, keepSessionHash: string): Promise<void>;
  passwordHashOf(userId: string): Promise<string | null>;

  /** False when `expectedRevision` is not the saved one: nothing was written. */
  updateProfile(userId: string, change: ProfileChange): Promise<boolean>;
  /** The currency billing fixed at the payment provider; null before billing started (or without it). */
  billingCurrency(userId: string): Promise<'JPY' | 'USD' | null>;
  addMail(
    address: { id: string; userId: string; email: string; createdAt: Date },
    mail: AccountMail,
  ): Promise<'added' | 'duplicate'>;
  removeMail(userId: string, mailId: string): Promise<boolean>;
  setDiscord(userId: string, sealedWebhook: string | null, state: DiscordState): Promise<void>;
  /** The account-wide webhook URL as stored (sealed), or null when none is linked. */
  sealedDiscordWebhook(userId: string): Promise<string | null>;
  /** The account's quiet hours (docs/product.md#quiet-hours); NO_QUIET_HOURS when never set. */
  quietHours(userId: string): Promise<{ quiet: QuietHours; revision: number }>;
  /**
   * Saves the quiet hours and raises the settings revision; with `expectedRevision`, only over
   * that one (docs/product.md#edit-conflicts). The new revision, or null when it had moved on.
   */
  setQuietHours(userId: string, quiet: QuietHours, expectedRevision?: number): Promise<number | null>;

  insertSupportRequest(
    request: { id: string; userId: string; type: string; notes: string; createdAt: Date },
    mail: AccountMail | null,
  ): Promise<void>;
  findSupportFollowUp(tokenHash: string, now: Date): Promise<{ type: string; notes: string } | null>;
  useSupportFollowUp(tokenHash: string, notes: string, now: Date): Promise<boolean>;
}
