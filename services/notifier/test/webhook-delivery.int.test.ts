import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountService } from '@mimamori/account';
import { type BlobStore, createFileBlobStore } from '@mimamori/blob-store';
import { type BusMessage, createJetStreamBus, type EventBus, namespacedBus } from '@mimamori/bus';
import { accountV1, webhookV1 } from '@mimamori/contracts';
import { type Db, openPostgres } from '@mimamori/db';
import { checkCompleted, filingPublished, targetRegistered, updateDetected } from '@mimamori/events';
import { openMailTransport } from '@mimamori/mail';
import { createGrpcClient, createLogger, createShutdown, type Shutdown, unary } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import {
  createFreshDatabase,
  type FreshDatabase,
  type SmtpServerFixture,
  startSmtpServer,
  startWebhookReceiver,
  testNatsUrl,
  type WebhookReceiver,
} from '@mimamori/test-fixtures';
import { createWebhookPoster } from '@mimamori/webhook';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountProfileClient } from '../src/clients/account-profile-client.ts';
import type { NotificationProfileSource } from '../src/domain/notification-profile.ts';
import { systemClock } from '../src/domain/site-quiet-hours.ts';
import { updateConsumer } from '../src/events/update-consumer.ts';
import { createNotifierService } from '../src/service.ts';
import { createDeliveryStore } from '../src/store/delivery-store.ts';
import { checkCounted } from './check-counted.ts';

const logger = createLogger({ service: 'notifier-webhook-test', level: 'silent' });
const secretBox = createSecretBox(generateSecretKey('k1'));

let database: FreshDatabase;
let db: Db;
let bus: EventBus;
let shutdown: Shutdown;
let smtp: SmtpServerFixture;
let blobs: BlobStore;
let blobDir: string;
let accounts: accountV1.AccountServiceClient;
let webhooks: webhookV1.WebhookServiceClient;
let profiles: NotificationProfileSource;
/** Let through the SSRF guard by both services. */
let receiver: WebhookReceiver;
/** Let through by the account service only: a URL that passed at registration and leads inside at send time. */
let inside: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  inside = await startWebhookReceiver();
  database = await createFreshDatabase();
  db = openPostgres(database.url);
  bus = namespacedBus(
    await createJetStreamBus({ servers: testNatsUrl() }),
    `w${randomBytes(4).toString('hex')}`,
  );
  shutdown = createShutdown({ logger, timeoutMs: 5_000 });
  smtp = await startSmtpServer();
  blobDir = await mkdtemp(join(tmpdir(), 'notifier-webhook-blobs-'));
  blobs = await createFileBlobStore(blobDir);
  const host = { db, bus, logger, shutdown, grpc: { host: '127.0.0.1', port: 0 } };
  const running = await runService(
    createAccountService({ db, logger, secretBox, webhookEgressAllow: [receiver.hostPort, inside.hostPort] }),
    host,
  );
  accounts = createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress);
  webhooks = createGrpcClient(webhookV1.WebhookServiceClient, running.grpcAddress);
  profiles = accountProfileClient(() =>
    createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress),
  );
  await runService(
    createNotifierService({
      db,
      logger,
      mail: openMailTransport(smtp.url, 'Mimamori <no-reply@mimamori.local>'),
      secretBox,
      publicUrl: () => 'https://mimamori.example/',
      updates: { profiles, blobs, webhookEgressAllow: [receiver.hostPort] },
    }),
    host,
  );
}, 60_000);

afterAll(async () => {
  accounts?.close();
  webhooks?.close();
  await shutdown?.run('test finished');
  await bus?.close();
  await db?.close();
  await database?.drop();
  await smtp?.close();
  await blobs?.close();
  await receiver?.close();
  await inside?.close();
  if (blobDir) await rm(blobDir, { recursive: true, force: true });
});

/** A signed-in account in Tokyo with a site that mails nobody (webhooks only). */
async function newUser(silenceAlertDays = 0) {
  const { userId } = await unary(accounts, 'createAccount', {
    email: `w${randomBytes(4).toString('hex')}@example.jp`,
    password: 'abcd1234',
    lang: 'ja',
  });
  const sessionToken = randomUUID();
  // As the account service keeps sessions: by the SHA-256 of the token.
  await db.query(
    `INSERT INTO account.sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
    [createHash('sha256').update(sessionToken).digest('base64url'), userId],
  );
  await db.query(`UPDATE account.users SET timezone = 'Asia/Tokyo' WHERE id = $1`, [userId]);
  const targetId = randomUUID();
  const event = {
    eventId: `targets.registered:${targetId}:1`,
    targetId,
    userId,
    version: 2,
    revision: 1,
    intervalMinutes: 1,
    paused: false,
    pausedReason: '',
    notice: {
      label: '価格ページ',
      url: 'https://shop.example.jp/price',
      mailNotify: false,
      chatNotify: 'none',
      sealedDiscordWebhook: '',
      failureAlertAfter: 3,
      silenceAlertDays,
      quietMode: 'account',
      areas: [{ areaId: 'price', label: 'セール価格' }],
    },
  };
  await bus.publish(targetRegistered.subject, targetRegistered.encode(event), { msgId: event.eventId });
  await waitUntil(async () => {
    const { rows } = await db.query('SELECT 1 FROM notifier.target_notices WHERE target_id = $1', [targetId]);
    return rows.length > 0;
  }, 'the site notice');
  return { userId, sessionToken, targetId };
}

/** A webhook made through the account service; the receiver learns its secret as the user would. */
async function addWebhook(
  user: { sessionToken: string },
  at: WebhookReceiver,
  path: string,
  targetId = '',
): Promise<string> {
  const made = await unary(webhooks, 'createWebhook', {
    sessionToken: user.sessionToken,
    url: `${at.url}${path}`,
    targetId,
  });
  at.setSecret(path, made.secret);
  return made.webhook?.id ?? '';
}

function updateEvent(targetId: string, userId: string) {
  const updateId = randomUUID();
  return {
    eventId: `update:${updateId}`,
    updateId,
    checkId: randomUUID(),
    targetId,
    userId,
    detectedAt: new Date('2026-11-23T14:05:00Z'),
    notify: true,
    matched: [
      {
        groupIndex: 0,
        conditionIndex: 0,
        areaId: 'price',
        operand: 'new',
        operator: 'keyword',
        value: 'セール',
      },
    ],
    areas: [
      {
        areaId: 'price',
        diffText: '- 1,200円\n+ 980円 セール',
        added: ['980円 セール'],
        removed: ['1,200円'],
        summaryJa: '1,200円 → 980円（−18%）',
        summaryEn: '1,200円 → 980円 (−18 %)',
      },
    ],
    beforeScreenshotBlobKey: `updates/${targetId}/${updateId}/before.webp`,
    afterScreenshotBlobKey: `updates/${targetId}/${updateId}/after.webp`,
  };
}

async function waitUntil(probe: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function delivery(id: string) {
  const { rows } = await db.query<{ status: string; attempts: number }>(
    'SELECT status, attempts FROM notifier.deliveries WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}

/** An event handed to a consumer directly as its `deliveryCount`th copy, remembering how it was settled. */
function copy(data: Uint8Array, deliveryCount: number) {
  const settled: { nakDelayMs?: number } = {};
  const message: BusMessage = {
    subject: updateDetected.subject,
    data,
    msgId: randomUUID(),
    headers: {},
    deliveryCount,
    ack() {},
    nak(delayMs) {
      settled.nakDelayMs = delayMs ?? 0;
    },
    term() {},
    working() {},
  };
  return { message, settled };
}

/** The notifier's update consumer on its own, with a backoff the test can read. */
function directConsumer(retryDelay: (count: number) => number) {
  return updateConsumer({
    db,
    deliveries: createDeliveryStore(db),
    mail: openMailTransport(smtp.url, 'Mimamori <no-reply@mimamori.local>'),
    secretBox,
    profiles,
    blobs,
    discordApiBase: 'https://discord.com',
    publicUrl: () => 'https://mimamori.example/',
    webhooks: createWebhookPoster({ allow: [receiver.hostPort] }),
    logger,
    clock: systemClock(),
    retryDelay,
  });
}

describe('signed webhook deliveries', () => {
  it('posts each update once to the account’s and the site’s webhooks, signed so the receiver verifies it', async () => {
    const user = await newUser();
    const allId = await addWebhook(user, receiver, `/all-${user.userId}`);
    const siteId = await addWebhook(user, receiver, `/site-${user.userId}`, user.targetId);
    const other = await newUser();
    await addWebhook(user, receiver, `/other-site-${user.userId}`, other.targetId);

    const event = updateEvent(user.targetId, user.userId);
    await bus.publish(updateDetected.subject, updateDetected.encode(event), { msgId: event.eventId });
    const [all] = await receiver.waitFor(`/all-${user.userId}`, 1);
    const [site] = await receiver.waitFor(`/site-${user.userId}`, 1);
    for (const got of [all, site]) {
      expect(got?.verified).toBe(true);
      expect(got?.status).toBe(200);
      expect(got?.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    }
    expect(JSON.parse(all?.body ?? '{}')).toMatchObject({
      type: 'update',
      id: event.updateId,
      site: {
        id: user.targetId,
        label: '価格ページ',
        url: 'https://shop.example.jp/price',
        history_url: `https://mimamori.example/target2?id=${user.targetId}`,
      },
      areas: [{ id: 'price', name: 'セール価格', diff: '- 1,200円\n+ 980円 セール' }],
      matched_rules: [{ area_name: 'セール価格', operator: 'keyword', value: 'セール' }],
      pictures: {
        before: expect.stringMatching(/^https:\/\/mimamori\.example\/api\/v2\/screenshot\?.*image=before/),
        after: expect.stringMatching(/image=after/),
      },
      detected_at: '2026-11-23T14:05:00.000Z',
      detected_at_local: '2026-11-23T23:05:00+09:00',
      timezone: 'Asia/Tokyo',
    });

    // The receiver refuses the same signature over a tampered body.
    const tampered = await fetch(`${receiver.url}/site-${user.userId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mimamori-signature': site?.signature ?? '' },
      body: (site?.body ?? '').replace('980円', '9円'),
    });
    expect(tampered.status).toBe(400);

    // The same event again (a redelivery past the duplicate window) sends nothing twice.
    await bus.publish(updateDetected.subject, updateDetected.encode(event), {
      msgId: `${event.eventId}:again`,
    });
    for (const webhookId of [allId, siteId]) {
      const id = `update:${event.updateId}:webhook:${webhookId}`;
      await waitUntil(async () => (await delivery(id))?.attempts === 2, 'the second copy');
      expect((await delivery(id))?.status).toBe('sent');
    }
    expect(
      receiver.received.filter((got) => got.path === `/all-${user.userId}` && got.verified),
    ).toHaveLength(1);
    expect(
      receiver.received.filter((got) => got.path === `/site-${user.userId}` && got.verified),
    ).toHaveLength(1);
    expect(receiver.received.filter((got) => got.path === `/other-site-${user.userId}`)).toHaveLength(0);
  });

  it('tells each webhook once that a site keeps failing and once that it works again', async () => {
    const user = await newUser();
    const path = `/alerts-${user.userId}`;
    const webhookId = await addWebhook(user, receiver, path);
    const other = await newUser();
    await addWebhook(user, receiver, `/alerts-other-${user.userId}`, other.targetId);
    const start = Date.parse('2026-11-23T14:00:00Z');
    const run = new Date(start).toISOString();
    // Five failures in a row (the site alerts after 3), then a success.
    for (let k = 0; k < 6; k++) {
      const checkId = randomUUID();
      const dueAt = new Date(start + k * 60_000);
      const event = {
        eventId: `checks.completed:${checkId}`,
        checkId,
        targetId: user.targetId,
        userId: user.userId,
        dueAt,
        completedAt: new Date(dueAt.getTime() + 5_000),
        outcome: k < 5 ? 'error' : 'no_change',
        errorCode: k < 5 ? 'element_not_found' : '',
        errorDetail: '',
        updateId: '',
        errorAreaId: k < 5 ? 'price' : '',
      };
      await bus.publish(checkCompleted.subject, checkCompleted.encode(event), { msgId: event.eventId });
      // A site's checks are a minute apart: each result is counted before the next arrives.
      await waitUntil(
        async () => {
          return checkCounted(db, {
            targetId: user.targetId,
            outcome: event.outcome,
            dueAt: event.dueAt,
            completedAt: event.completedAt,
          });
        },
        `check ${k + 1} counted`,
      );
    }
    const [failure, recovery] = await receiver.waitFor(path, 2);
    expect([failure?.verified, recovery?.verified]).toEqual([true, true]);
    expect(JSON.parse(failure?.body ?? '{}')).toEqual({
      type: 'failure',
      id: `failure:${user.targetId}:${run}`,
      site: {
        id: user.targetId,
        label: '価格ページ',
        url: 'https://shop.example.jp/price',
        history_url: `https://mimamori.example/target2?id=${user.targetId}`,
      },
      failure: {
        kind: 'element_not_found',
        area_id: 'price',
        area_name: 'セール価格',
        message: expect.stringContaining('監視範囲「セール価格」が見つかりませんでした'),
        count: 3,
        // When the first failed check finished, as the history shows it.
        since: '2026-11-23T14:00:05.000Z',
        since_local: '2026-11-23T23:00:05+09:00',
      },
      timezone: 'Asia/Tokyo',
      lang: 'ja',
    });
    expect(JSON.parse(recovery?.body ?? '{}')).toMatchObject({
      type: 'recovery',
      id: `recovered:${user.targetId}:${run}`,
      recovered: {
        since: '2026-11-23T14:00:05.000Z',
        since_local: '2026-11-23T23:00:05+09:00',
        // When the first good check finished: after every failure.
        at: '2026-11-23T14:05:05.000Z',
        at_local: '2026-11-23T23:05:05+09:00',
      },
    });
    for (const id of [`failure:${user.targetId}:${run}`, `recovered:${user.targetId}:${run}`]) {
      await waitUntil(async () => (await delivery(`${id}:webhook:${webhookId}`))?.status === 'sent', id);
    }
    // Failures 4 and 5 of the same run tell nobody again; the other site's webhook hears nothing.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.filter((got) => got.path === path)).toHaveLength(2);
    expect(receiver.received.filter((got) => got.path === `/alerts-other-${user.userId}`)).toHaveLength(0);
  });

  it('tells each webhook once that a site has not changed for its days, and again after a change and another spell', async () => {
    const user = await newUser(3);
    const path = `/silence-${user.userId}`;
    await addWebhook(user, receiver, path);
    const day = (n: number, hour = 0) => new Date(Date.UTC(2026, 11, 1 + n, hour));
    // Daily checks (the check's own time decides, not a clock): the first on day 0, an update on
    // day 4, a failed check on day 7 that says nothing of the page, the rest unchanged.
    const checks: [Date, string][] = [
      [day(0), 'no_change'],
      [day(1), 'no_change'],
      [day(2), 'no_change'],
      [day(3), 'no_change'],
      [day(3, 12), 'no_change'],
      [day(4), 'update'],
      [day(5), 'no_change'],
      [day(7), 'error'],
      [day(8), 'no_change'],
      [day(9), 'no_change'],
    ];
    for (const [completedAt, outcome] of checks) {
      const checkId = randomUUID();
      const event = {
        eventId: `checks.completed:${checkId}`,
        checkId,
        targetId: user.targetId,
        userId: user.userId,
        dueAt: completedAt,
        completedAt,
        outcome,
        errorCode: outcome === 'error' ? 'timeout' : '',
        errorDetail: '',
        updateId: outcome === 'update' ? randomUUID() : '',
        errorAreaId: '',
      };
      await bus.publish(checkCompleted.subject, checkCompleted.encode(event), { msgId: event.eventId });
      await waitUntil(async () => {
        return checkCounted(db, {
          targetId: user.targetId,
          outcome: event.outcome,
          dueAt: event.dueAt,
          completedAt: event.completedAt,
        });
      }, `the check of ${completedAt.toISOString()} counted`);
    }
    // Day 3: three days without a change since day 0 (told once, not again at day 3 12:00); the
    // update of day 4 starts a new spell, told at day 8 (day 7's failure counts for nothing).
    const told = await receiver.waitFor(path, 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.filter((got) => got.path === path)).toHaveLength(2);
    expect(told.map((got) => got.verified)).toEqual([true, true]);
    expect(told.map((got) => JSON.parse(got.body))).toMatchObject([
      {
        type: 'silence',
        id: `silence:${user.targetId}:${day(0).toISOString()}`,
        silence: { days: 3, since: day(0).toISOString(), since_local: '2026-12-01T09:00:00+09:00' },
      },
      { type: 'silence', silence: { days: 3, since: day(4).toISOString() } },
    ]);
  });

  it('posts each filing notice once to the account-wide webhooks, signed, and not to a site’s own', async () => {
    const user = await newUser();
    const path = `/filings-${user.userId}`;
    const webhookId = await addWebhook(user, receiver, path);
    await addWebhook(user, receiver, `/filings-site-${user.userId}`, user.targetId);
    const eventId = `filing:tdnet:140120261123482613:${user.userId}`;
    const event = {
      eventId,
      userId: user.userId,
      followId: 'follow-1',
      followLabel: 'トヨタ自動車',
      source: 'tdnet',
      filingKey: '140120261123482613',
      companyName: 'トヨタ自動車株式会社',
      companyCode: '7203',
      title: '業績予想の修正に関するお知らせ',
      documentUrl: 'https://www.release.tdnet.info/inbs/140120261123482613.pdf',
      publishedAt: new Date('2026-11-23T06:00:00Z'),
      seenAt: new Date('2026-11-23T06:01:00Z'),
    };
    await bus.publish(filingPublished.subject, filingPublished.encode(event), { msgId: eventId });
    const [got] = await receiver.waitFor(path, 1);
    expect(got?.verified).toBe(true);
    expect(JSON.parse(got?.body ?? '{}')).toEqual({
      type: 'filing',
      id: eventId,
      follow: { id: 'follow-1', label: 'トヨタ自動車' },
      filing: {
        source: 'tdnet',
        key: '140120261123482613',
        company_name: 'トヨタ自動車株式会社',
        company_code: '7203',
        title: '業績予想の修正に関するお知らせ',
        document_url: 'https://www.release.tdnet.info/inbs/140120261123482613.pdf',
        published_at: '2026-11-23T06:00:00.000Z',
        published_at_local: '2026-11-23T15:00:00+09:00',
      },
      timezone: 'Asia/Tokyo',
      lang: 'ja',
    });
    const id = `${eventId}:webhook:${webhookId}`;
    await waitUntil(async () => (await delivery(id))?.status === 'sent', 'the filing delivery');

    // Republished past the duplicate window: the delivery is done and nothing is posted twice.
    await bus.publish(filingPublished.subject, filingPublished.encode(event), { msgId: `${eventId}:again` });
    await waitUntil(async () => (await delivery(id))?.attempts === 2, 'the second copy');
    expect(receiver.received.filter((delivered) => delivered.path === path)).toHaveLength(1);
    expect(
      receiver.received.filter((delivered) => delivered.path === `/filings-site-${user.userId}`),
    ).toHaveLength(0);
  });

  it('refuses at send time a URL that now leads to a forbidden address, for good', async () => {
    const user = await newUser();
    const webhookId = await addWebhook(user, inside, `/inside-${user.userId}`);
    const event = updateEvent(user.targetId, user.userId);
    await bus.publish(updateDetected.subject, updateDetected.encode(event), { msgId: event.eventId });
    const id = `update:${event.updateId}:webhook:${webhookId}`;
    await waitUntil(async () => (await delivery(id))?.status === 'given_up', 'the refused delivery');
    expect(inside.received).toHaveLength(0);
  });

  it('retries a failing receiver with growing backoff, then delivers once', async () => {
    const user = await newUser();
    const path = `/flaky-${user.userId}`;
    const webhookId = await addWebhook(user, receiver, path);
    receiver.failNext(path, [500, 503]);
    const backoff = (count: number) => 1_000 * 2 ** (count - 1);
    const consumer = directConsumer(backoff);
    const data = updateDetected.encode(updateEvent(user.targetId, user.userId));
    const id = `update:${updateDetected.decode(data).updateId}:webhook:${webhookId}`;

    const first = copy(data, 1);
    await consumer.handler(first.message);
    expect(first.settled.nakDelayMs).toBe(1_000);
    const second = copy(data, 2);
    await consumer.handler(second.message);
    expect(second.settled.nakDelayMs).toBe(2_000);
    expect((await delivery(id))?.status).toBe('sending');
    const third = copy(data, 3);
    await consumer.handler(third.message);
    expect(third.settled.nakDelayMs).toBeUndefined();
    expect(await delivery(id)).toEqual({ status: 'sent', attempts: 3 });
    const fourth = copy(data, 4);
    await consumer.handler(fourth.message);

    const got = receiver.received.filter((delivered) => delivered.path === path);
    expect(got.map((delivered) => delivered.status)).toEqual([500, 503, 200]);
    expect(got.every((delivered) => delivered.verified)).toBe(true);
    // Every retry carries the same body; only the signature's time may differ.
    expect(new Set(got.map((delivered) => delivered.body)).size).toBe(1);
  });

  it('marks a delivery that failed on the event’s last try as failed, not left sending', async () => {
    const user = await newUser();
    const path = `/down-${user.userId}`;
    const webhookId = await addWebhook(user, receiver, path);
    receiver.failNext(path, [500, 500]);
    const consumer = directConsumer(() => 10);
    const data = updateDetected.encode(updateEvent(user.targetId, user.userId));
    const id = `update:${updateDetected.decode(data).updateId}:webhook:${webhookId}`;

    await consumer.handler(copy(data, 19).message);
    expect((await delivery(id))?.status).toBe('sending');
    const last = copy(data, 20);
    await consumer.handler(last.message);
    expect(last.settled.nakDelayMs).toBeUndefined();
    expect((await delivery(id))?.status).toBe('failed');
    // A redriven copy finds it final and sends nothing more.
    await consumer.handler(copy(data, 1).message);
    expect(receiver.received.filter((delivered) => delivered.path === path)).toHaveLength(2);
  });
});
