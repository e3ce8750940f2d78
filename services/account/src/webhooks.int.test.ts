import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { accountV1, webhookV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { targetDeleted } from '@mimamori/events';
import { createGrpcClient, unary } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import {
  startTestServiceHost,
  startWebhookReceiver,
  type TestServiceHost,
  type WebhookReceiver,
} from '@mimamori/test-fixtures';
import { verifySignature } from '@mimamori/webhook';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionToken } from './domain/session-token.ts';
import { createAccountService } from './service.ts';

let testHost: TestServiceHost;
let db: Db;
let accounts: accountV1.AccountServiceClient;
let webhooks: webhookV1.WebhookServiceClient;
let receiver: WebhookReceiver;
const secretBox = createSecretBox(generateSecretKey('test'));

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  testHost = await startTestServiceHost('account-webhooks');
  db = testHost.db;
  const running = await runService(
    createAccountService({ db, logger: testHost.logger, secretBox, webhookEgressAllow: [receiver.hostPort] }),
    testHost.host,
  );
  accounts = createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress);
  webhooks = createGrpcClient(webhookV1.WebhookServiceClient, running.grpcAddress);
}, 60_000);

afterAll(async () => {
  accounts?.close();
  webhooks?.close();
  await testHost?.close();
  await receiver?.close();
});

/** A signed-in account: its session token and user id. */
async function signedIn() {
  const { userId } = await unary(accounts, 'createAccount', {
    email: `w${randomUUID().slice(0, 8)}@example.jp`,
    password: 'abcd1234',
    lang: 'ja',
  });
  const sessionToken = randomUUID();
  await db.query(
    `INSERT INTO account.sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
    [hashSessionToken(sessionToken), userId],
  );
  return { sessionToken, userId };
}

describe('signed webhooks in the account service', () => {
  it('shows the secret once, keeps it sealed, rotates it and lists webhooks without it', async () => {
    const { sessionToken, userId } = await signedIn();
    const made = await unary(webhooks, 'createWebhook', {
      sessionToken,
      url: `${receiver.url}/hooks/a`,
      targetId: '',
    });
    expect(made.secret).toMatch(/^whsec_/);
    expect(made.webhook).toMatchObject({ url: `${receiver.url}/hooks/a`, targetId: '' });
    const { rows } = await db.query<{ sealed_secret: string }>('SELECT sealed_secret FROM account.webhooks');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.sealed_secret).not.toContain('whsec_');

    const listed = await unary(webhooks, 'listWebhooks', { sessionToken });
    expect(listed.webhooks).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(made.secret);

    const webhookId = made.webhook?.id ?? '';
    const rotated = await unary(webhooks, 'rotateWebhookSecret', { sessionToken, webhookId });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(made.secret);

    // The notifier's view: the sealed secret opens to the rotated one, for this account only.
    const profile = await unary(accounts, 'getNotificationProfile', { userId });
    const [listedHook] = profile.webhooks;
    expect(secretBox.open(listedHook?.sealedSecret ?? '', `account:${userId}:webhook:${webhookId}`)).toBe(
      rotated.secret,
    );
    expect(() =>
      secretBox.open(listedHook?.sealedSecret ?? '', `account:other:webhook:${webhookId}`),
    ).toThrow();
  });

  it('test-sends a signed delivery and answers the receiver’s status and body', async () => {
    const { sessionToken } = await signedIn();
    const made = await unary(webhooks, 'createWebhook', {
      sessionToken,
      url: `${receiver.url}/hooks/test`,
      targetId: 'site-1',
    });
    receiver.setSecret('/hooks/test', made.secret);
    const answer = await unary(webhooks, 'testWebhook', { sessionToken, webhookId: made.webhook?.id ?? '' });
    expect(answer).toMatchObject({ outcome: 'answered', status: 200, bodyExcerpt: '{"received":true}' });
    const [delivery] = await receiver.waitFor('/hooks/test', 1);
    expect(delivery?.verified).toBe(true);
    expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({ type: 'test', test: true });

    // A receiver that no longer knows the secret (rotated here, not there) refuses it: the answer says so.
    await unary(webhooks, 'rotateWebhookSecret', { sessionToken, webhookId: made.webhook?.id ?? '' });
    const refused = await unary(webhooks, 'testWebhook', { sessionToken, webhookId: made.webhook?.id ?? '' });
    expect(refused).toMatchObject({ outcome: 'answered', status: 400 });
    expect(refused.bodyExcerpt).toContain('signature does not verify');
    const last = receiver.received.at(-1);
    expect(verifySignature(made.secret, last?.signature ?? '', last?.body ?? '').ok).toBe(false);
  });

  it('refuses URLs to forbidden addresses and other schemes at registration', async () => {
    const { sessionToken } = await signedIn();
    for (const url of [
      'http://127.0.0.1:9/hook',
      'http://localhost/hook',
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
      'http://metadata.google.internal/',
    ]) {
      await expect(
        unary(webhooks, 'createWebhook', { sessionToken, url, targetId: '' }),
      ).rejects.toMatchObject({
        code: status.INVALID_ARGUMENT,
        details: 'webhook_address_forbidden',
      });
    }
    // A name that does not resolve is not called "not public": the user has a typo to fix.
    await expect(
      unary(webhooks, 'createWebhook', {
        sessionToken,
        url: 'https://hooks.example.invalid/in',
        targetId: '',
      }),
    ).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, details: 'webhook_address_unreachable' });
    for (const url of ['ftp://example.com/x', 'not a url', 'https://user:pw@example.com/']) {
      await expect(
        unary(webhooks, 'createWebhook', { sessionToken, url, targetId: '' }),
      ).rejects.toMatchObject({
        code: status.INVALID_ARGUMENT,
        details: 'invalid_webhook_url',
      });
    }
    expect((await unary(webhooks, 'listWebhooks', { sessionToken })).webhooks).toHaveLength(0);
  });

  it('deletes a site’s own webhooks when the site is deleted, and keeps the account-wide ones', async () => {
    const { sessionToken, userId } = await signedIn();
    const targetId = randomUUID();
    for (const [path, target] of [
      ['/hooks/every', ''],
      ['/hooks/gone-site', targetId],
    ] as const) {
      await unary(webhooks, 'createWebhook', {
        sessionToken,
        url: `${receiver.url}${path}`,
        targetId: target,
      });
    }
    const event = {
      eventId: `targets.deleted:${targetId}:2`,
      targetId,
      userId,
      revision: 2,
      occurredAt: new Date(),
    };
    await testHost.bus.publish(targetDeleted.subject, targetDeleted.encode(event), { msgId: event.eventId });
    const deadline = Date.now() + 30_000;
    let left: string[] = [];
    while (Date.now() < deadline) {
      left = (await unary(webhooks, 'listWebhooks', { sessionToken })).webhooks.map((hook) => hook.targetId);
      if (left.length === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(left).toEqual(['']);
  });

  it('keeps one account’s webhooks out of another’s reach', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const made = await unary(webhooks, 'createWebhook', {
      sessionToken: a.sessionToken,
      url: `${receiver.url}/hooks/a-only`,
      targetId: '',
    });
    const webhookId = made.webhook?.id ?? '';
    expect((await unary(webhooks, 'listWebhooks', { sessionToken: b.sessionToken })).webhooks).toHaveLength(
      0,
    );
    for (const method of ['rotateWebhookSecret', 'deleteWebhook', 'testWebhook'] as const) {
      await expect(
        unary(webhooks, method, { sessionToken: b.sessionToken, webhookId }),
      ).rejects.toMatchObject({ code: status.NOT_FOUND });
    }
    expect(receiver.received.filter((delivery) => delivery.path === '/hooks/a-only')).toHaveLength(0);
    await expect(unary(webhooks, 'listWebhooks', { sessionToken: 'nobody' })).rejects.toMatchObject({
      code: status.UNAUTHENTICATED,
    });
    await unary(webhooks, 'deleteWebhook', { sessionToken: a.sessionToken, webhookId });
    expect((await unary(webhooks, 'listWebhooks', { sessionToken: a.sessionToken })).webhooks).toHaveLength(
      0,
    );
  });
});
