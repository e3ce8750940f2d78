import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import type { BusMessage } from '@mimamori/bus';
import { accountV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { accountCreated } from '@mimamori/events';
import { createGrpcClient, unary } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { startTestServiceHost, type TestServiceHost } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionToken } from './domain/session-token.ts';
import { createAccountService } from './service.ts';
import { recordCancellationFeedback } from './store/cancellation-feedback-store.ts';

let testHost: TestServiceHost;
let db: Db;
let client: accountV1.AccountServiceClient;
const published: BusMessage[] = [];

beforeAll(async () => {
  testHost = await startTestServiceHost('account-test');
  db = testHost.db;
  const running = await runService(
    createAccountService({
      db,
      logger: testHost.logger,
      secretBox: createSecretBox(generateSecretKey('test')),
    }),
    testHost.host,
  );
  client = createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress);
  await testHost.bus.consume(
    { stream: accountCreated.stream, durable: 'account-test', ackWaitMs: 5_000, maxDeliver: 3 },
    async (message) => {
      published.push(message);
    },
  );
});

afterAll(async () => {
  client?.close();
  await testHost?.close();
});

async function waitFor<T>(probe: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('account service over gRPC on PostgreSQL and JetStream', () => {
  it('creates an account with an argon2id hash and publishes AccountCreated through the outbox', async () => {
    const { userId } = await unary(client, 'createAccount', {
      email: 'Hanako@example.jp',
      password: 'abcd1234',
      lang: 'ja',
    });
    const { rows } = await db.query<{ email: string; password_hash: string; lang: string }>(
      'SELECT email, password_hash, lang FROM account.users WHERE id = $1',
      [userId],
    );
    expect(rows[0]?.email).toBe('Hanako@example.jp');
    expect(rows[0]?.password_hash).toMatch(/^\$argon2id\$/);
    expect(rows[0]?.password_hash).not.toContain('abcd1234');

    const message = await waitFor(
      () => published.find((m) => accountCreated.decode(m.data).userId === userId),
      'the AccountCreated event',
    );
    expect(message.msgId).toBe(`account-created:${userId}`);
    expect(message.subject).toBe(accountCreated.subject);
    expect(accountCreated.decode(message.data)).toMatchObject({
      userId,
      email: 'Hanako@example.jp',
      lang: 'ja',
    });
  });

  it('refuses an e-mail already registered, whatever its case', async () => {
    await unary(client, 'createAccount', { email: 'taro@example.jp', password: 'abcd1234', lang: 'ja' });
    await expect(
      unary(client, 'createAccount', { email: 'TARO@example.jp', password: 'efgh5678', lang: 'en' }),
    ).rejects.toMatchObject({ code: status.ALREADY_EXISTS });
  });

  it('refuses invalid credentials as INVALID_ARGUMENT naming the problem', async () => {
    await expect(
      unary(client, 'createAccount', { email: 'x@example.jp', password: 'short', lang: 'ja' }),
    ).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: 'password_too_short',
    });
  });

  it('answers user_info only for a live session', async () => {
    await expect(unary(client, 'getUserInfo', { sessionToken: '' })).rejects.toMatchObject({
      code: status.UNAUTHENTICATED,
    });
    await expect(unary(client, 'getUserInfo', { sessionToken: 'unknown' })).rejects.toMatchObject({
      code: status.UNAUTHENTICATED,
    });

    const { userId } = await unary(client, 'createAccount', {
      email: 'jiro@example.com',
      password: 'abcd1234',
      lang: 'en',
    });
    await db.query(
      `INSERT INTO account.sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day'),
                                                                      ($3, $2, now() - interval '1 second')`,
      [hashSessionToken('live-token'), userId, hashSessionToken('expired-token')],
    );
    const { userInfo } = await unary(client, 'getUserInfo', { sessionToken: 'live-token' });
    expect(userInfo).toMatchObject({
      userId,
      mails: ['jiro@example.com'],
      locale: { lang: 'en', currency: 'USD' },
    });
    await expect(unary(client, 'getUserInfo', { sessionToken: 'expired-token' })).rejects.toMatchObject({
      code: status.UNAUTHENTICATED,
    });
  });

  it('keeps cancellation questionnaire answers for the billing issue', async () => {
    const { userId } = await unary(client, 'createAccount', {
      email: 'leaving@example.com',
      password: 'abcd1234',
      lang: 'ja',
    });
    await recordCancellationFeedback(db, {
      id: randomUUID(),
      userId,
      feedback: { reasons: ['too_expensive', 'other'], comment: '高い' },
      at: new Date('2026-12-01T00:00:00Z'),
    });
    const { rows } = await db.query<{ reasons: string[]; comment: string }>(
      'SELECT reasons, comment FROM account.cancellation_feedback WHERE user_id = $1',
      [userId],
    );
    expect(rows).toEqual([{ reasons: ['too_expensive', 'other'], comment: '高い' }]);
  });

  it('tells the notifier a user’s addresses (verified additional ones only), locale and sealed webhook', async () => {
    const { userId } = await unary(client, 'createAccount', {
      email: 'notice@example.jp',
      password: 'abcd1234',
      lang: 'en',
    });
    await db.query(
      `INSERT INTO account.mail_addresses (id, user_id, position, email, verified_at, created_at)
       VALUES ($1, $3, 0, 'kept@example.jp', now(), now()), ($2, $3, 1, 'pending@example.jp', NULL, now())`,
      [randomUUID(), randomUUID(), userId],
    );
    await db.query(
      `UPDATE account.users SET timezone = 'Asia/Tokyo', discord_webhook_sealed = 'sealed-url', discord_state = 'complete'
        WHERE id = $1`,
      [userId],
    );
    expect(await unary(client, 'getNotificationProfile', { userId })).toEqual({
      found: true,
      email: 'notice@example.jp',
      verifiedMails: ['kept@example.jp'],
      lang: 'en',
      timezone: 'Asia/Tokyo',
      discordState: 'complete',
      sealedDiscordWebhook: 'sealed-url',
      webhooks: [],
      chatLinks: [],
      // None set: never quiet, alerts break through (docs/product.md#quiet-hours).
      quietHours: { from: '', until: '', allDay: [], holidays: false, alertsBreakThrough: true },
    });
    expect(await unary(client, 'getNotificationProfile', { userId: randomUUID() })).toMatchObject({
      found: false,
    });
  });
});
