import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountService } from '@mimamori/account';
import { type BlobStore, createFileBlobStore } from '@mimamori/blob-store';
import { type BusMessage, createJetStreamBus, type EventBus, namespacedBus } from '@mimamori/bus';
import { chatworkStandIn, memoryStandInStore } from '@mimamori/chat-stand-ins';
import { accountV1, chatLinkV1, webhookV1 } from '@mimamori/contracts';
import { type Db, openPostgres } from '@mimamori/db';
import { checkCompleted, targetRegistered, updateDetected } from '@mimamori/events';
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
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountProfileClient } from '../src/clients/account-profile-client.ts';
import { chatLinkBreaker } from '../src/clients/chat-link-client.ts';
import type { NotificationProfileSource } from '../src/domain/notification-profile.ts';
import type { NotifierClock } from '../src/domain/site-quiet-hours.ts';
import { checkResultConsumer } from '../src/events/check-result-consumer.ts';
import { createNotifierService } from '../src/service.ts';
import { createDeliveryStore } from '../src/store/delivery-store.ts';
import { type DiscordStandIn, startDiscordStandIn } from './discord-stand-in.ts';

const logger = createLogger({ service: 'quiet-hours-test', level: 'silent' });
const secretBox = createSecretBox(generateSecretKey('k1'));
const MAIL_FROM = 'Mimamori <no-reply@mimamori.local>';
/** A moment written in Japan time. */
const jst = (local: string) => new Date(`${local}+09:00`);
// Nights 20:00–08:00, weekends and Japanese public holidays all day.
const QUIET = { from: '20:00', until: '08:00', allDay: [0, 6], holidays: true, alertsBreakThrough: true };

/** The product's time, moved by hand; a held alert comes back after a short real wait. */
let now = jst('2026-11-19T21:00');
const clock: NotifierClock = { now: () => now, realMs: () => 200 };

let database: FreshDatabase;
let db: Db;
let bus: EventBus;
let shutdown: Shutdown;
let smtp: SmtpServerFixture;
let discord: DiscordStandIn;
let receiver: WebhookReceiver;
let blobs: BlobStore;
let blobDir: string;
let accounts: accountV1.AccountServiceClient;
let webhookService: webhookV1.WebhookServiceClient;
let profiles: NotificationProfileSource;
let accountAddress: string;
let chatLinks: chatLinkV1.ChatLinkServiceClient;
/** The Chatwork stand-in (its limits enforced) keeps what it receives here. */
let standIns: FastifyInstance;
const standInStore = memoryStandInStore();
let chatSettings: { chatwork: { apiBase: string } };
const CHATWORK_TOKEN = '0123456789abcdef0123456789abcdef';
let host: Parameters<typeof runService>[1];
/** The notifier's own stop, so the test can restart it on the same database and streams. */
let notifierShutdown: Shutdown | undefined;

async function startNotifier() {
  notifierShutdown = createShutdown({ logger, timeoutMs: 5_000 });
  await runService(
    createNotifierService({
      db,
      logger,
      mail: openMailTransport(smtp.url, MAIL_FROM),
      secretBox,
      publicUrl: () => 'https://mimamori.example/',
      // The notifier closes its profile client when it stops: each start gets its own.
      updates: {
        chat: {
          settings: chatSettings,
          links: chatLinkBreaker(() => createGrpcClient(chatLinkV1.ChatLinkServiceClient, accountAddress)),
        },
        profiles: accountProfileClient(() =>
          createGrpcClient(accountV1.AccountServiceClient, accountAddress),
        ),
        blobs,
        discordApiBase: discord.apiBase,
        webhookEgressAllow: [receiver.hostPort],
      },
      clock,
      digestEveryMs: 100,
    }),
    { ...host, shutdown: notifierShutdown },
  );
}

beforeAll(async () => {
  standIns = Fastify();
  chatworkStandIn()(standIns, '/dev/chatwork', {
    store: standInStore,
    productUrl: () => '',
    settings: {},
    now: () => Date.now(),
  });
  chatSettings = {
    chatwork: { apiBase: `${await standIns.listen({ host: '127.0.0.1', port: 0 })}/dev/chatwork` },
  };
  database = await createFreshDatabase();
  db = openPostgres(database.url);
  bus = namespacedBus(
    await createJetStreamBus({ servers: testNatsUrl() }),
    `q${randomBytes(4).toString('hex')}`,
  );
  shutdown = createShutdown({ logger, timeoutMs: 5_000 });
  smtp = await startSmtpServer();
  discord = await startDiscordStandIn();
  receiver = await startWebhookReceiver();
  blobDir = await mkdtemp(join(tmpdir(), 'notifier-quiet-blobs-'));
  blobs = await createFileBlobStore(blobDir);
  host = { db, bus, logger, shutdown, grpc: { host: '127.0.0.1', port: 0 } };
  const running = await runService(
    createAccountService({ db, logger, secretBox, webhookEgressAllow: [receiver.hostPort], chatSettings }),
    host,
  );
  accountAddress = running.grpcAddress;
  accounts = createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress);
  webhookService = createGrpcClient(webhookV1.WebhookServiceClient, running.grpcAddress);
  chatLinks = createGrpcClient(chatLinkV1.ChatLinkServiceClient, running.grpcAddress);
  profiles = accountProfileClient(() =>
    createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress),
  );
  await startNotifier();
}, 60_000);

afterAll(async () => {
  accounts?.close();
  webhookService?.close();
  chatLinks?.close();
  await notifierShutdown?.run('test finished');
  await shutdown?.run('test finished');
  await bus?.close();
  await db?.close();
  await database?.drop();
  await smtp?.close();
  await discord?.close();
  await receiver?.close();
  await standIns?.close();
  await blobs?.close();
  if (blobDir) await rm(blobDir, { recursive: true, force: true });
});

/**
 * A signed-in account in Tokyo with quiet hours, a linked Discord webhook and an account-wide
 * signed webhook at the local receiver.
 */
async function newUser(quiet = QUIET) {
  const email = `q${randomBytes(4).toString('hex')}@example.jp`;
  const { userId } = await unary(accounts, 'createAccount', { email, password: 'abcd1234', lang: 'ja' });
  const sessionToken = randomUUID();
  // As the account service keeps sessions: by the SHA-256 of the token.
  await db.query(
    `INSERT INTO account.sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
    [createHash('sha256').update(sessionToken).digest('base64url'), userId],
  );
  const discordId = String(100_000_000_000_000_000n + BigInt(randomBytes(4).readUInt32BE()));
  await db.query(
    `UPDATE account.users SET timezone = 'Asia/Tokyo', discord_webhook_sealed = $2, discord_state = 'complete' WHERE id = $1`,
    [
      userId,
      secretBox.seal(
        `https://discord.com/api/webhooks/${discordId}/${'t'.repeat(68)}`,
        `account:${userId}:discord_webhook`,
      ),
    ],
  );
  await unary(accounts, 'setQuietHours', { sessionToken, quietHours: quiet });
  const path = `/hooks/${userId}`;
  const made = await unary(webhookService, 'createWebhook', {
    sessionToken,
    url: `${receiver.url}${path}`,
    targetId: '',
  });
  receiver.setSecret(path, made.secret);
  // An account-wide Chatwork link, in a room of its own.
  const roomId = String(100 + Number.parseInt(randomBytes(2).toString('hex'), 16));
  await unary(chatLinks, 'linkChatByFields', {
    sessionToken,
    platform: 'chatwork',
    targetId: '',
    fields: { apiToken: CHATWORK_TOKEN, roomId },
    relinkId: '',
  });
  return { userId, email, sessionToken, discordId, path, roomId };
}

async function registerSite(
  userId: string,
  label: string,
  notice: {
    mailNotify: boolean;
    chatNotify: string;
    quietMode?: string;
    quietHours?: typeof QUIET;
  },
) {
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
      label,
      url: `https://shop.example.jp/${encodeURIComponent(label)}`,
      sealedDiscordWebhook: '',
      areas: [{ areaId: 'price', label: 'セール価格' }],
      failureAlertAfter: 3,
      silenceAlertDays: 0,
      quietMode: 'account',
      ...notice,
    },
  };
  await bus.publish(targetRegistered.subject, targetRegistered.encode(event), { msgId: event.eventId });
  await waitUntil(async () => {
    const { rows } = await db.query('SELECT 1 FROM notifier.target_notices WHERE target_id = $1', [targetId]);
    return rows.length > 0;
  }, 'the site notice');
  return targetId;
}

/** An update found now (the clock's time) and announced. */
async function publishUpdate(targetId: string, userId: string, summaryJa: string, updateId = randomUUID()) {
  await bus.publish(
    updateDetected.subject,
    updateDetected.encode({
      eventId: `update:${updateId}`,
      updateId,
      checkId: randomUUID(),
      targetId,
      userId,
      detectedAt: now,
      notify: true,
      matched: [],
      areas: [
        {
          areaId: 'price',
          diffText: '- a\n+ b',
          added: ['b'],
          removed: ['a'],
          summaryJa,
          summaryEn: summaryJa,
        },
      ],
      beforeScreenshotBlobKey: '',
      afterScreenshotBlobKey: '',
    }),
    { msgId: `update:${updateId}` },
  );
  return updateId;
}

async function waitUntil(probe: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

async function heldFor(userId: string): Promise<{ update_id: string; release_at: Date }[]> {
  const { rows } = await db.query<{ update_id: string; release_at: Date }>(
    'SELECT update_id, release_at FROM notifier.held_updates WHERE user_id = $1 ORDER BY seq',
    [userId],
  );
  return rows;
}

const digestMails = (email: string) =>
  smtp.messages.filter(
    (mail) => JSON.stringify(mail.to).includes(email) && mail.subject?.includes('お休み中の更新'),
  );
const mailsTo = (email: string) => smtp.messages.filter((mail) => JSON.stringify(mail.to).includes(email));
const discordPosts = (discordId: string) => discord.accepted.filter((post) => post.webhookId === discordId);
const inRoom = async (roomId: string) =>
  (await standInStore.list('chatwork')).filter((record) => record.chat === roomId);
const roomText = (record: { body: unknown } | undefined) =>
  (record?.body as { body?: string } | undefined)?.body ?? '';
const deliveriesTo = (path: string) => receiver.received.filter((delivery) => delivery.path === path);

describe('quiet hours with a digest (docs/product.md#quiet-hours)', () => {
  it('the account’s quiet hours are refused when malformed and reach the notification profile', async () => {
    const user = await newUser();
    await expect(
      unary(accounts, 'setQuietHours', {
        sessionToken: user.sessionToken,
        quietHours: { ...QUIET, from: '24:00' },
      }),
    ).rejects.toThrow(/quiet_hours_time_invalid/);
    await expect(
      unary(accounts, 'setQuietHours', {
        sessionToken: user.sessionToken,
        quietHours: { ...QUIET, allDay: [6, 6] },
      }),
    ).rejects.toThrow(/quiet_hours_day_invalid/);
    // The weekdays are kept in order.
    await unary(accounts, 'setQuietHours', {
      sessionToken: user.sessionToken,
      quietHours: { ...QUIET, allDay: [6, 0] },
    });
    expect((await unary(accounts, 'getQuietHours', { sessionToken: user.sessionToken })).quietHours).toEqual(
      QUIET,
    );
    expect((await profiles.read(user.userId))?.quietHours).toEqual(QUIET);
  });

  it('a weekday night: updates are held, nothing is lost across a restart, one digest per channel at 08:00', async () => {
    now = jst('2026-11-19T21:00'); // Thursday night.
    const user = await newUser();
    const price = await registerSite(user.userId, '価格ページ', { mailNotify: true, chatNotify: 'account' });
    const news = await registerSite(user.userId, 'お知らせ', { mailNotify: true, chatNotify: 'none' });

    const first = await publishUpdate(price, user.userId, '1,200円 → 980円（−18%）');
    await waitUntil(async () => (await heldFor(user.userId)).length === 1, 'the first update held');

    // The notifier stops in the middle of the night; an update found meanwhile waits in the stream.
    await notifierShutdown?.run('restart');
    now = jst('2026-11-20T02:30');
    const second = await publishUpdate(news, user.userId, '新しいお知らせ 1 件');
    await startNotifier();
    await waitUntil(async () => (await heldFor(user.userId)).length === 2, 'the second update held');
    expect((await heldFor(user.userId)).map((row) => [row.update_id, row.release_at])).toEqual([
      [first, jst('2026-11-20T08:00')],
      [second, jst('2026-11-20T08:00')],
    ]);
    expect(mailsTo(user.email)).toEqual([]);
    expect(discordPosts(user.discordId)).toEqual([]);
    expect(deliveriesTo(user.path)).toEqual([]);
    expect(await inRoom(user.roomId)).toEqual([]);

    // The webhook fails the digest's first try: mail and Discord go, the webhook follows at the
    // next pass, and neither of the others is sent twice.
    receiver.failNext(user.path, [500]);
    now = jst('2026-11-20T08:00');
    await waitUntil(async () => (await heldFor(user.userId)).length === 0, 'the digest released');

    const mails = digestMails(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('【Mimamori】お休み中の更新 2 件');
    expect(mails[0]?.text).toContain('価格ページ: 1,200円 → 980円（−18%）');
    expect(mails[0]?.text).toContain('お知らせ: 新しいお知らせ 1 件');
    expect(mailsTo(user.email)).toHaveLength(1);

    // Discord hears only of the site that posts there.
    const posts = discordPosts(user.discordId);
    expect(posts).toHaveLength(1);
    expect(posts[0]?.payload.embeds[0]?.title).toBe('【Mimamori】お休み中の更新 1 件');
    expect(posts[0]?.payload.embeds[0]?.description).toContain('価格ページ');
    expect(posts[0]?.payload.embeds[0]?.description).not.toContain('お知らせ');

    // The account-wide chat link, like Discord, hears only of the site whose chat is on.
    const chat = await inRoom(user.roomId);
    expect(chat).toHaveLength(1);
    expect(roomText(chat[0])).toContain('お休み中の更新 1 件');
    expect(roomText(chat[0])).toContain('価格ページ: 1,200円 → 980円（−18%）');
    expect(roomText(chat[0])).not.toContain('お知らせ');

    const deliveries = deliveriesTo(user.path);
    expect(deliveries.map((delivery) => delivery.status)).toEqual([500, 200]);
    const body = JSON.parse(deliveries[1]?.body ?? '{}');
    expect(deliveries[1]?.verified).toBe(true);
    expect(body).toMatchObject({
      type: 'digest',
      until: '2026-11-19T23:00:00.000Z',
      updates: [{ id: first }, { id: second }],
    });
    const { rows } = await db.query<{ status: string }>(
      `SELECT status FROM notifier.deliveries WHERE id LIKE $1`,
      [`digest:${user.userId}:%`],
    );
    expect(rows.map((row) => row.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
  });

  it('a weekend and 勤労感謝の日 (Monday 2026-11-23) run into one digest on Tuesday at 08:00', async () => {
    const user = await newUser();
    const price = await registerSite(user.userId, '価格ページ', { mailNotify: true, chatNotify: 'none' });
    now = jst('2026-11-21T12:00'); // Saturday noon.
    await publishUpdate(price, user.userId, '在庫あり → 売り切れ');
    await waitUntil(async () => (await heldFor(user.userId)).length === 1, 'the Saturday update held');
    now = jst('2026-11-23T12:00'); // The holiday's noon.
    await publishUpdate(price, user.userId, '売り切れ → 在庫あり');
    await waitUntil(async () => (await heldFor(user.userId)).length === 2, 'the holiday update held');
    expect((await heldFor(user.userId)).map((row) => row.release_at)).toEqual([
      jst('2026-11-24T08:00'),
      jst('2026-11-24T08:00'),
    ]);

    now = jst('2026-11-24T08:00');
    await waitUntil(async () => (await heldFor(user.userId)).length === 0, 'the digest released');
    const mails = digestMails(user.email);
    expect(mails).toHaveLength(1);
    // Oldest first.
    const text = mails[0]?.text ?? '';
    expect(text.indexOf('在庫あり → 売り切れ')).toBeLessThan(text.indexOf('売り切れ → 在庫あり'));
    expect(text.indexOf('在庫あり → 売り切れ')).toBeGreaterThan(-1);

    // Outside quiet hours an update goes out at once.
    now = jst('2026-11-24T12:00');
    await publishUpdate(price, user.userId, '980円 → 1,000円（+2%）');
    await waitUntil(() => mailsTo(user.email).length === 2, 'the update mail');
    expect(await heldFor(user.userId)).toEqual([]);
    expect(mailsTo(user.email)[1]?.subject).not.toContain('お休み中');
  });

  it('a site with none is told at once inside the account’s quiet hours; one with its own keeps those', async () => {
    now = jst('2026-11-19T21:00'); // Thursday night: the account's quiet hours.
    const user = await newUser();
    const loud = await registerSite(user.userId, '速報', {
      mailNotify: true,
      chatNotify: 'none',
      quietMode: 'none',
    });
    const own = await registerSite(user.userId, '夜だけ', {
      mailNotify: true,
      chatNotify: 'none',
      quietMode: 'own',
      quietHours: { from: '21:30', until: '22:00', allDay: [], holidays: false, alertsBreakThrough: true },
    });
    await publishUpdate(loud, user.userId, '速報 1 件');
    await waitUntil(() => mailsTo(user.email).length === 1, 'the update of the site with no quiet hours');
    // Outside the site's own window, though inside the account's: sent at once.
    await publishUpdate(own, user.userId, '夜 1 件');
    await waitUntil(() => mailsTo(user.email).length === 2, 'the update outside the site’s own hours');
    now = jst('2026-11-19T21:45');
    const held = await publishUpdate(own, user.userId, '夜 2 件');
    await waitUntil(
      async () => (await heldFor(user.userId)).length === 1,
      'the update inside the site’s own hours',
    );
    expect(await heldFor(user.userId)).toEqual([{ update_id: held, release_at: jst('2026-11-19T22:00') }]);
    expect(mailsTo(user.email)).toHaveLength(2);
    now = jst('2026-11-19T22:00');
    await waitUntil(() => digestMails(user.email).length === 1, 'the site’s digest');
    expect(digestMails(user.email)[0]?.text).toContain('夜だけ: 夜 2 件');
  });

  it('an update a channel had begun to tell before the quiet hours is told on the others at once, not held', async () => {
    now = jst('2026-11-19T21:00');
    const user = await newUser();
    const site = await registerSite(user.userId, '価格ページ', { mailNotify: true, chatNotify: 'account' });
    // As a copy of the event left it before the quiet hours: its mail sent, the rest not yet.
    const updateId = randomUUID();
    await db.query(
      `INSERT INTO notifier.deliveries (id, channel, status, attempts, sent_at) VALUES ($1, 'email', 'sent', 1, now())`,
      [`update:${updateId}:email`],
    );
    await publishUpdate(site, user.userId, '1,200円 → 980円（−18%）', updateId);
    await waitUntil(() => discordPosts(user.discordId).length === 1, 'the Discord message');
    await waitUntil(() => deliveriesTo(user.path).length === 1, 'the webhook delivery');
    expect(await heldFor(user.userId)).toEqual([]);
    expect(mailsTo(user.email)).toEqual([]);
  });

  it('failure alerts break through by choice; otherwise the result comes back when the quiet hours end', async () => {
    const consumer = checkResultConsumer({
      db,
      deliveries: createDeliveryStore(db),
      mail: openMailTransport(smtp.url, MAIL_FROM),
      secretBox,
      profiles,
      discordApiBase: discord.apiBase,
      publicUrl: () => 'https://mimamori.example/',
      webhooks: createWebhookPoster({ allow: [receiver.hostPort] }),
      logger,
      // Hands a held result back for exactly the product time left, to be read below.
      clock: { now: () => now, realMs: (ms) => ms },
    });
    const failing = async (user: { userId: string }, targetId: string, minute: number, deliveryCount = 1) => {
      const data = checkCompleted.encode({
        eventId: `checked:${targetId}:${minute}`,
        checkId: randomUUID(),
        targetId,
        userId: user.userId,
        dueAt: new Date(now.getTime() + minute * 60_000),
        completedAt: new Date(now.getTime() + minute * 60_000 + 5_000),
        outcome: 'error',
        errorCode: 'timeout',
        errorDetail: '',
        updateId: '',
        errorAreaId: '',
      });
      return settle(consumer.handler, checkCompleted.subject, data, deliveryCount);
    };

    // Sunday noon, alerts break through: the third failure alerts at once.
    now = jst('2026-11-22T12:00');
    const through = await newUser();
    const site = await registerSite(through.userId, '価格ページ', { mailNotify: true, chatNotify: 'none' });
    for (const minute of [0, 1]) expect(await failing(through, site, minute)).toEqual({});
    expect(await failing(through, site, 2)).toEqual({});
    expect(mailsTo(through.email).map((mail) => mail.subject)).toEqual([
      '【Mimamori】「価格ページ」の確認が失敗しています',
    ]);

    // Alerts held: the third failure is handed back until Tuesday 08:00 (the holiday in between).
    const waiting = await newUser({ ...QUIET, alertsBreakThrough: false });
    const other = await registerSite(waiting.userId, '在庫ページ', { mailNotify: true, chatNotify: 'none' });
    for (const minute of [0, 1]) expect(await failing(waiting, other, minute)).toEqual({});
    expect(await failing(waiting, other, 2)).toEqual({
      nakDelayMs: jst('2026-11-24T08:00').getTime() - now.getTime(),
    });
    expect(mailsTo(waiting.email)).toEqual([]);

    now = jst('2026-11-24T08:00');
    expect(await failing(waiting, other, 2, 2)).toEqual({});
    expect(mailsTo(waiting.email).map((mail) => mail.subject)).toEqual([
      '【Mimamori】「在庫ページ」の確認が失敗しています',
    ]);
  });
});

/** Hands one delivery to a consumer directly and answers how it was settled. */
async function settle(
  handler: (message: BusMessage) => Promise<void>,
  subject: string,
  data: Uint8Array,
  deliveryCount: number,
): Promise<{ nakDelayMs?: number }> {
  const settled: { nakDelayMs?: number } = {};
  await handler({
    subject,
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
  });
  return settled;
}
