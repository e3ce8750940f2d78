import type { IssuedToken } from './one-time-token.ts';

export type AccountMailKind =
  | 'verify_email'
  | 'verify_mail'
  | 'change_email'
  | 'email_taken'
  | 'reset_password'
  | 'support_received'
  | 'chat_link_broken'
  | 'workspace_invitation'
  | 'new_device';

/** A mail the notifier sends for the account service, with the link token it carries. */
export interface AccountMail {
  kind: AccountMailKind;
  userId: string;
  to: string;
  lang: 'ja' | 'en';
  token?: IssuedToken;
  /** What the token is about beyond its user: the address it verifies, the request it follows up. */
  tokenSubject?: string;
  supportType?: string;
  /** chat_link_broken: which link broke and why. */
  chat?: { platform: string; label: string; reason: string };
  /** workspace_invitation: the workspace's name, the role offered and who invited. */
  invitation?: { workspaceName: string; role: string; inviterName: string };
  /** new_device: the browser, the address and the time of the sign-in, written in the user's zone. */
  device?: { browser: string; os: string; clientAddress: string; at: Date; timezone: string };
}
