import type { AccountDeps } from './account-deps.ts';
import { AccountProblem } from './account-problem.ts';
import type { DiscordState } from './account-record.ts';
import { parseDiscordWebhook, webhookUrl } from './discord-webhook.ts';

export interface DiscordLinkDeps extends Pick<AccountDeps, 'accounts'> {
  /** Seals the webhook URL for storage, bound to the user. */
  seal(url: string, userId: string): string;
  /** Posts the test message; resolves whether Discord accepted it. */
  sendTestMessage(url: string, lang: 'ja' | 'en'): Promise<boolean>;
  discordApiBase: string;
}

const TEST_MESSAGE = {
  ja: 'Mimamori との連携が完了しました。変更があるとここにお知らせします。',
  en: 'Mimamori is linked. Changes will be announced here.',
} as const;

export function testMessage(lang: 'ja' | 'en'): string {
  return TEST_MESSAGE[lang];
}

/**
 * docs/product.md#account: the chat link is not set, linking, complete or not complete. The URL is stored
 * (sealed) as linking, then the test message decides complete or not complete.
 */
export async function linkDiscord(
  userId: string,
  lang: 'ja' | 'en',
  input: string,
  deps: DiscordLinkDeps,
): Promise<DiscordState> {
  const webhook = parseDiscordWebhook(input);
  if (!webhook) throw new AccountProblem('invalid', 'invalid_discord_webhook');
  const url = webhookUrl(webhook, 'https://discord.com');
  const sealed = deps.seal(url, userId);
  await deps.accounts.setDiscord(userId, sealed, 'linking');
  const delivered = await deps.sendTestMessage(webhookUrl(webhook, deps.discordApiBase), lang);
  const state: DiscordState = delivered ? 'complete' : 'not_complete';
  await deps.accounts.setDiscord(userId, sealed, state);
  return state;
}

export async function unlinkDiscord(userId: string, deps: Pick<AccountDeps, 'accounts'>): Promise<void> {
  await deps.accounts.setDiscord(userId, null, 'not_set');
}
