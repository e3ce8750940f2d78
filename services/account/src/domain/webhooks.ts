import { AccountProblem } from './account-problem.ts';
import type { Clock } from './clock.ts';

/** One signed webhook of an account (docs/product.md#webhooks); its secret stays sealed in the store. */
export interface WebhookRecord {
  id: string;
  userId: string;
  /** Empty for account-wide: every site's updates. */
  targetId: string;
  url: string;
  sealedSecret: string;
  createdAt: Date;
  secretRotatedAt: Date;
}

export interface WebhookStore {
  list(userId: string): Promise<WebhookRecord[]>;
  find(userId: string, id: string): Promise<WebhookRecord | null>;
  insert(record: WebhookRecord): Promise<void>;
  /** False when the webhook is not the user's (or gone). */
  replaceSecret(userId: string, id: string, sealedSecret: string, at: Date): Promise<boolean>;
  delete(userId: string, id: string): Promise<boolean>;
}

/** What the webhook use cases reach outside: the SSRF guard, signing secrets and the receiver. */
export interface WebhookOutside {
  /** Why the URL cannot take deliveries (the SSRF guard, or a name that does not resolve), or null. */
  refusal(url: string): Promise<{ kind: 'not_a_url' | 'not_public' | 'unreachable' } | null>;
  newSecret(): string;
  seal(secret: string, userId: string, webhookId: string): string;
  open(sealed: string, userId: string, webhookId: string): string;
  post(url: string, body: string, secret: string): Promise<TestAnswer>;
}

export type TestAnswer =
  | { kind: 'answered'; status: number; bodyExcerpt: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'unreachable'; reason: string };

/** docs/product.md#webhooks: at most this many per account, site ones included. */
export const MAX_WEBHOOKS = 10;
const MAX_URL_LENGTH = 2_000;

export interface WebhookDeps {
  webhooks: WebhookStore;
  outside: WebhookOutside;
  clock: Clock;
  newId(): string;
}

/** Checks the URL is http(s), carries no credentials and leads to a public address (SSRF guard). */
export async function acceptedUrl(raw: string, outside: Pick<WebhookOutside, 'refusal'>): Promise<string> {
  const trimmed = raw.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new AccountProblem('invalid', 'invalid_webhook_url');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || trimmed.length > MAX_URL_LENGTH) {
    throw new AccountProblem('invalid', 'invalid_webhook_url');
  }
  // Credentials in the URL would be shown on the account page to anyone at the screen.
  if (url.username || url.password) throw new AccountProblem('invalid', 'invalid_webhook_url');
  // Told apart because the user fixes them differently: another address, or a typo in the name.
  const refused = await outside.refusal(url.toString());
  if (refused?.kind === 'unreachable') throw new AccountProblem('invalid', 'webhook_address_unreachable');
  if (refused?.kind === 'not_a_url') throw new AccountProblem('invalid', 'invalid_webhook_url');
  if (refused) throw new AccountProblem('invalid', 'webhook_address_forbidden');
  return url.toString();
}

export async function createWebhook(
  deps: WebhookDeps,
  userId: string,
  input: { url: string; targetId: string },
): Promise<{ webhook: WebhookRecord; secret: string }> {
  const url = await acceptedUrl(input.url, deps.outside);
  if ((await deps.webhooks.list(userId)).length >= MAX_WEBHOOKS) {
    throw new AccountProblem('invalid', 'webhook_quota_exceeded');
  }
  const id = deps.newId();
  const secret = deps.outside.newSecret();
  const now = deps.clock.now();
  const webhook: WebhookRecord = {
    id,
    userId,
    targetId: input.targetId,
    url,
    sealedSecret: deps.outside.seal(secret, userId, id),
    createdAt: now,
    secretRotatedAt: now,
  };
  await deps.webhooks.insert(webhook);
  return { webhook, secret };
}

export async function rotateWebhookSecret(
  deps: WebhookDeps,
  userId: string,
  id: string,
): Promise<{ webhook: WebhookRecord; secret: string }> {
  const secret = deps.outside.newSecret();
  const now = deps.clock.now();
  const replaced = await deps.webhooks.replaceSecret(userId, id, deps.outside.seal(secret, userId, id), now);
  const webhook = replaced ? await deps.webhooks.find(userId, id) : null;
  if (!webhook) throw new AccountProblem('not_found', 'webhook_not_found');
  return { webhook, secret };
}

export async function deleteWebhook(deps: WebhookDeps, userId: string, id: string): Promise<void> {
  if (!(await deps.webhooks.delete(userId, id))) throw new AccountProblem('not_found', 'webhook_not_found');
}

/**
 * A signed test delivery, shaped like an update's (docs/webhooks.md) with `test: true`, posted
 * through the same guard as every delivery: a URL that now leads inside is refused here too.
 */
export async function testWebhook(deps: WebhookDeps, userId: string, id: string): Promise<TestAnswer> {
  const webhook = await deps.webhooks.find(userId, id);
  if (!webhook) throw new AccountProblem('not_found', 'webhook_not_found');
  const now = deps.clock.now();
  const body = JSON.stringify({
    type: 'test',
    test: true,
    id: `test:${webhook.id}:${now.getTime()}`,
    webhook_id: webhook.id,
    sent_at: now.toISOString(),
  });
  return deps.outside.post(webhook.url, body, deps.outside.open(webhook.sealedSecret, userId, webhook.id));
}
