import type { AccountSettings, AccountUpdate } from '@mimamori/http-api';
import { apiRequest } from './client.ts';

/** GET /api/account: the account screen's data. */
export type { AccountSettings, AccountUpdate, AdditionalMail, DiscordState } from '@mimamori/http-api';

const post = <T>(path: string, body?: unknown) =>
  apiRequest<T>(path, body === undefined ? { method: 'POST' } : { method: 'POST', body });

export function fetchAccount(signal?: AbortSignal): Promise<AccountSettings> {
  return apiRequest<AccountSettings>('/api/account', signal ? { signal } : {});
}

/** Only the fields sent change; nothing sent answers `no_changes`. */
export function updateAccount(update: AccountUpdate): Promise<AccountSettings> {
  return post('/api/account/update', update);
}

/** Mails a link to the new address; the sign-in address changes when it is opened. */
export function changeEmail(email: string): Promise<AccountSettings> {
  return post('/api/account/email', { email });
}

/** An X user without a password sets one by leaving current_password out. */
export function changePassword(input: { current_password?: string; new_password: string }): Promise<void> {
  return post('/api/account/password', input);
}

export function addMail(email: string): Promise<AccountSettings> {
  return post('/api/account/mails', { email });
}

export function removeMail(mailId: string): Promise<AccountSettings> {
  return post('/api/account/mails/delete', { mail_id: mailId });
}

/** Links the webhook and sends a test message; the answer's discord_state tells how it went. */
export function linkDiscord(webhookUrl: string): Promise<AccountSettings> {
  return post('/api/account/discord', { webhook_url: webhookUrl });
}

export function unlinkDiscord(): Promise<AccountSettings> {
  return post('/api/account/discord/delete');
}
