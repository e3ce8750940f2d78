import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountService } from '@mimamori/account';
import { type BlobStore, createFileBlobStore } from '@mimamori/blob-store';
import { type BusMessage, createJetStreamBus, type EventBus, namespacedBus } from '@mimamori/bus';
import { accountV1 } from '@mimamori/contracts';
import { type Db, openPostgres } from '@mimamori/db';
import {
  checkCompleted,
  filingPublished,
  targetDeleted,
  targetRegistered,
  updateDetected,
} from '@mimamori/events';
import { openMailTransport } from '@mimamori/mail';
import { createGrpcClient, createLogger, createShutdown, type Shutdown, unary } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import {
  createFreshDatabase,
  type FreshDatabase,
  type SmtpServerFixture,
  startSmtpServer,
  testNatsUrl,
} from '@mimamori/test-fixtures';
import { createWebhookPoster } from '@mimamori/webhook';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountProfileClient } from '../src/clients/account-profile-client.ts';
import type { NotificationProfileSource } from '../src/domain/notification-profile.ts';
import { systemClock } from '../src/domain/site-quiet-hours.ts';
import { checkResultConsumer } from '../src/events/check-result-consumer.ts';
import { targetNoticeConsumers } from '../src/events/target-notice-consumers.ts';
import { updateConsumer } from '../src/events/update-consumer.ts';
import { createNotifierService } from '../src/service.ts';
import { createDeliveryStore } from '../src/store/delivery-store.ts';
import { type DiscordStandIn, startDiscordStandIn } from './discord-stand-in.ts';

type ParsedMail = SmtpServerFixture['messages'][number];

const logger = createLogger({ service: 'notifier-test', level: 'silent' });
const secretBox = createSecretBox(generateSecretKey('k1'));
const MAIL_FROM = 'Mimamori <no-reply@mimamori.local>';
// WebP as the diff service writes them: grey and teal pages with different content, so the
// pictures can be told apart after the mail's re-encoding.
const webpPage = async (background: string) =>
  new Uint8Array(
    await sharp({ create: { width: 320, height: 200, channels: 3, background } })
      .webp({ quality: 80 })
      .toBuffer(),
  );
let BEFORE: Uint8Array;
let AFTER: Uint8Array;

let database: FreshDatabase;
let db: Db;
let bus: EventBus;
let shutdown: Shutdown;
let smtp: SmtpServerFixture;
let discord: DiscordStandIn;
let blobs: BlobStore;
let blobDir: string;
let account: accountV1.AccountServiceClient;
let profiles: NotificationProfileSource;

beforeAll(async () => {
  BEFORE = await webpPage('#888888');
  AFTER = await webpPage('#0f766e');
  database = await createFreshDatabase();
  db = openPostgres(database.url);
  bus = namespacedBus(
    await createJetStreamBus({ servers: testNatsUrl() }),
    `n${randomBytes(4).toString('hex')}`,
  );
  shutdown = createShutdown({ logger, timeoutMs: 5_000 });
  smtp = await startSmtpServer();
  discord = await startDiscordStandIn();
  blobDir = await mkdtemp(join(tmpdir(), 'notifier-blobs-'));
  blobs = await createFileBlobStore(blobDir);
  const host = { db, bus, logger, shutdown, grpc: { host: '127.0.0.1', port: 0 } };
  const running = await runService(createAccountService({ db, logger, secretBox }), host);
  account = createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress);
  profiles = accountProfileClient(() =>
    createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress),
  );
  await runService(
    createNotifierService({
      db,
      logger,
      mail: openMailTransport(smtp.url, MAIL_FROM),
      secretBox,
      publicUrl: () => 'https://mimamori.example/',
      updates: {
        profiles,
        blobs,
        discordApiBase: discord.apiBase,
      },
    }),
    host,
  );
});

afterAll(async () => {
  account?.close();
  await shutdown?.run('test finished');
  await bus?.close();
  await db?.close();
  await database?.drop();
  await smtp?.close();
  await discord?.close();
  await blobs?.close();
  if (blobDir) await rm(blobDir, { recursive: true, force: true });
});

/** An account in `lang` with a verified and an unverified additional address and a linked Discord webhook. */
async function newUser(lang: 'ja' | 'en') {
  const email = `u${randomBytes(4).toString('hex')}@example.jp`;
  const { userId } = await unary(account, 'createAccount', { email, password: 'abcd1234', lang });
  const extra = `extra-${email}`;
  const webhookId = String(100_000_000_000_000_000n + BigInt(randomBytes(4).readUInt32BE()));
  await db.query(
    `INSERT INTO account.mail_addresses (id, user_id, position, email, verified_at, created_at)
     VALUES ($1, $3, 0, $4, now(), now()), ($2, $3, 1, $5, NULL, now())`,
    [randomUUID(), randomUUID(), userId, extra, `unverified-${email}`],
  );
  await db.query(
    `UPDATE account.users SET timezone = $2, discord_webhook_sealed = $3, discord_state = 'complete' WHERE id = $1`,
    [
      userId,
      lang === 'ja' ? 'Asia/Tokyo' : 'America/New_York',
      secretBox.seal(
        `https://discord.com/api/webhooks/${webhookId}/${'t'.repeat(68)}`,
        `account:${userId}:discord_webhook`,
      ),
    ],
  );
  return { userId, email, extra, webhookId };
}

function siteEvent(
  targetId: string,
  userId: string,
  revision: number,
  notice: { mailNotify: boolean; chatNotify: string; sealedDiscordWebhook?: string },
) {
  return {
    eventId: `targets.registered:${targetId}:${revision}`,
    targetId,
    userId,
    version: 2,
    revision,
    intervalMinutes: 1,
    paused: false,
    pausedReason: '',
    notice: {
      label: '価格ページ',
      url: 'https://shop.example.jp/price',
      sealedDiscordWebhook: '',
      areas: [{ areaId: 'price', label: 'セール価格' }],
      failureAlertAfter: 3,
      silenceAlertDays: 0,
      quietMode: 'account',
      ...notice,
    },
  };
}

async function registerSite(
  userId: string,
  notice: { mailNotify: boolean; chatNotify: string; sealedDiscordWebhook?: string },
  targetId = randomUUID(),
) {
  const event = siteEvent(targetId, userId, 1, notice);
  await bus.publish(targetRegistered.subject, targetRegistered.encode(event), { msgId: event.eventId });
  await waitUntil(async () => {
    const { rows } = await db.query('SELECT 1 FROM notifier.target_notices WHERE target_id = $1', [targetId]);
    return rows.length > 0;
  }, 'the site notice');
  return targetId;
}

async function updateEvent(targetId: string, userId: string, notify = true) {
  const updateId = randomUUID();
  const before = `updates/${targetId}/${updateId}/before.webp`;
  const after = `updates/${targetId}/${updateId}/after.webp`;
  await blobs.put(before, BEFORE, { contentType: 'image/webp' });
  await blobs.put(after, AFTER, { contentType: 'image/webp' });
  return {
    eventId: `update:${updateId}`,
    updateId,
    checkId: randomUUID(),
    targetId,
    userId,
    detectedAt: new Date('2026-11-23T14:05:00Z'),
    notify,
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
    beforeScreenshotBlobKey: before,
    afterScreenshotBlobKey: after,
  };
}

async function waitUntil(probe: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const mailsTo = (address: string): ParsedMail[] =>
  smtp.messages.filter((message) => JSON.stringify(message.to).includes(address));

async function attempts(deliveryId: string): Promise<number> {
  const { rows } = await db.query<{ attempts: number }>(
    'SELECT attempts FROM notifier.deliveries WHERE id = $1',
    [deliveryId],
  );
  return rows[0]?.attempts ?? 0;
}

/** A delivery handed to a consumer directly, remembering how it was settled. */
function delivered(subject: string, data: Uint8Array, deliveryCount = 1) {
  const settled: { nakDelayMs?: number; termed?: boolean } = {};
  const message: BusMessage = {
    subject,
    data,
    msgId: randomUUID(),
    headers: {},
    deliveryCount,
    ack() {},
    nak(delayMs) {
      settled.nakDelayMs = delayMs ?? 0;
    },
    term() {
      settled.termed = true;
    },
    working() {},
  };
  return { message, settled };
}

function directUpdateConsumer() {
  return updateConsumer({
    db,
    deliveries: createDeliveryStore(db),
    mail: openMailTransport(smtp.url, MAIL_FROM),
    secretBox,
    profiles,
    blobs,
    discordApiBase: discord.apiBase,
    publicUrl: () => 'https://mimamori.example/',
    webhooks: createWebhookPoster(),
    logger,
    clock: systemClock(),
  });
}

describe('announcing updates over JetStream, SMTP and a Discord stand-in', () => {
  it('sends one e-mail and one Discord message per update, and nothing twice when the event comes again', async () => {
    const user = await newUser('ja');
    const targetId = await registerSite(user.userId, { mailNotify: true, chatNotify: 'account' });
    const event = await updateEvent(targetId, user.userId);
    await bus.publish(updateDetected.subject, updateDetected.encode(event), { msgId: event.eventId });

    const [message] = await discord.waitForAccepted(user.webhookId, 1);
    await smtp.waitForMessages(1);
    await waitUntil(() => mailsTo(user.email).length > 0, 'the update mail');
    const mail = mailsTo(user.email)[0] as ParsedMail;
    expect(JSON.stringify(mail.to)).toContain(user.extra);
    expect(JSON.stringify(mail.to)).not.toContain('unverified-');
    expect(mail.subject).toBe('【Mimamori】1,200円 → 980円（−18%）｜価格ページ');
    expect(mail.text).toContain('- 1,200円\n+ 980円 セール');
    // The area by the name the person gave it, the time in their zone by its name, the history.
    expect(mail.text).toContain('[セール価格]\n- 1,200円');
    expect(mail.text).toContain('グループ1 条件1: セール価格 — 追加部分 キーワードを含む セール');
    expect(mail.text).toContain('2026年11月23日 23:05（日本時間）');
    const history = `https://mimamori.example/target2?id=${targetId}`;
    expect(mail.text).toContain(`履歴を見る: ${history}`);
    expect(mail.html).toContain(`href="${history}"`);
    expect(mail.html).toContain('>セール価格</p>');
    // mailparser resolves each cid reference of the HTML into the attachment's bytes. The WebP
    // pictures go as JPEG, which every mail program shows.
    expect(mail.attachments.map((a) => a.cid)).toEqual(['before', 'after']);
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['before.jpeg', 'image/jpeg'],
      ['after.jpeg', 'image/jpeg'],
    ]);
    const [beforeJpeg, afterJpeg] = mail.attachments.map((a) => a.content);
    expect(mail.html).toContain(`src="data:image/jpeg;base64,${afterJpeg?.toString('base64')}"`);
    for (const [jpeg, colour] of [
      [beforeJpeg, [0x88, 0x88, 0x88]],
      [afterJpeg, [0x0f, 0x76, 0x6e]],
    ] as const) {
      const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
      expect([info.format, info.width, info.height]).toEqual(['raw', 320, 200]);
      for (const [channel, value] of colour.entries()) {
        expect(Math.abs((data[channel] ?? 0) - value)).toBeLessThan(6);
      }
    }

    const embed = message?.payload.embeds[0];
    expect(embed?.title).toBe('価格ページ');
    expect(embed?.url).toBe('https://shop.example.jp/price');
    expect(embed?.description).toContain('- 1,200円\n+ 980円 セール');
    expect(embed?.fields.map((field) => field.name)).toEqual([
      'サイト',
      '検知日時',
      '一致した通知条件',
      '履歴を見る',
    ]);
    expect(embed?.fields[3]?.value).toBe(history);
    expect(embed?.description).toContain('**セール価格**');
    expect(embed?.fields[2]?.value).toContain('キーワードを含む セール');
    expect(embed?.image?.url).toBe('attachment://after.webp');
    expect(message?.files.map((file) => [file.field, file.filename, file.size])).toEqual([
      ['files[0]', 'before.webp', BEFORE.length],
      ['files[1]', 'after.webp', AFTER.length],
    ]);

    // The same event again (as after a lost ack): both deliveries are looked up, none repeated.
    await bus.publish(updateDetected.subject, updateDetected.encode(event), {
      msgId: `${event.eventId}:again`,
    });
    await waitUntil(
      async () =>
        (await attempts(`update:${event.updateId}:email`)) === 2 &&
        (await attempts(`update:${event.updateId}:discord`)) === 2,
      'the second delivery to be handled',
    );
    expect(mailsTo(user.email)).toHaveLength(1);
    expect(discord.accepted.filter((m) => m.webhookId === user.webhookId)).toHaveLength(1);
    expect(discord.problems).toEqual([]);
  });

  it('retries a failing Discord (500) without holding back or repeating the e-mail; English, per-site webhook', async () => {
    const user = await newUser('en');
    const siteWebhook = '424242424242424242';
    const targetId = randomUUID();
    await registerSite(
      user.userId,
      {
        mailNotify: true,
        chatNotify: 'site',
        sealedDiscordWebhook: secretBox.seal(
          `https://discord.com/api/webhooks/${siteWebhook}/${'s'.repeat(68)}`,
          `target:${targetId}:discord_webhook`,
        ),
      },
      targetId,
    );
    discord.failNext(siteWebhook, { status: 500 });
    const event = await updateEvent(targetId, user.userId);
    await bus.publish(updateDetected.subject, updateDetected.encode(event), { msgId: event.eventId });

    const [message] = await discord.waitForAccepted(siteWebhook, 1);
    expect(discord.calls.filter((call) => call.startsWith(siteWebhook))).toEqual([
      `${siteWebhook} 500`,
      `${siteWebhook} 200`,
    ]);
    expect(message?.payload.embeds[0]?.fields.map((field) => field.name)).toEqual([
      'Site',
      'Detected at',
      'Matched rules',
      'Open the history',
    ]);
    expect(message?.payload.embeds[0]?.fields[1]?.value).toBe('Nov 23, 2026, 09:05 (Eastern Time)');
    const mails = mailsTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Mimamori: 1,200円 → 980円 (−18 %) | 価格ページ');
    expect(mails[0]?.text).toContain('group 1 condition 1: セール価格 — added text contains セール');
    expect(mails[0]?.text).toContain('Nov 23, 2026, 09:05 (Eastern Time)');
    expect(mails[0]?.text).toContain(`Open the history: https://mimamori.example/target2?id=${targetId}`);
    expect(discord.accepted.filter((m) => m.webhookId === user.webhookId)).toHaveLength(0);
    expect(discord.problems).toEqual([]);
  });

  it('honours Discord’s retry_after on a 429 and delivers on the next attempt', async () => {
    const user = await newUser('ja');
    const targetId = await registerSite(user.userId, { mailNotify: true, chatNotify: 'account' });
    discord.failNext(user.webhookId, { status: 429, retryAfterSeconds: 2.5 });
    const consumer = directUpdateConsumer();
    const event = await updateEvent(targetId, user.userId);
    const data = updateDetected.encode(event);

    const first = delivered(updateDetected.subject, data);
    await consumer.handler(first.message);
    expect(first.settled.nakDelayMs).toBe(2_500);
    expect(mailsTo(user.email)).toHaveLength(1);

    const second = delivered(updateDetected.subject, data, 2);
    await consumer.handler(second.message);
    expect(second.settled.nakDelayMs).toBeUndefined();
    expect(discord.accepted.filter((m) => m.webhookId === user.webhookId)).toHaveLength(1);
    expect(mailsTo(user.email)).toHaveLength(1);
  });

  it('sends the Discord message without the pictures when they are over the upload limit (413)', async () => {
    const user = await newUser('en');
    const targetId = await registerSite(user.userId, { mailNotify: false, chatNotify: 'account' });
    discord.failNext(user.webhookId, { status: 413 });
    const attempt = delivered(
      updateDetected.subject,
      updateDetected.encode(await updateEvent(targetId, user.userId)),
    );
    await directUpdateConsumer().handler(attempt.message);
    expect(attempt.settled.nakDelayMs).toBeUndefined();
    const [message] = discord.accepted.filter((m) => m.webhookId === user.webhookId);
    expect(message?.files).toEqual([]);
    expect(message?.payload.embeds[0]?.image).toBeUndefined();
    expect(message?.payload.embeds[0]?.description).toContain('+ 980円 セール');
  });

  it('sends nothing for an update the rules did not select, and only the channels the site has on', async () => {
    const user = await newUser('ja');
    const consumer = directUpdateConsumer();
    const both = await registerSite(user.userId, { mailNotify: true, chatNotify: 'account' });
    await consumer.handler(
      delivered(updateDetected.subject, updateDetected.encode(await updateEvent(both, user.userId, false)))
        .message,
    );
    expect(mailsTo(user.email)).toHaveLength(0);
    expect(discord.calls.filter((call) => call.startsWith(user.webhookId))).toHaveLength(0);

    const chatOnly = await registerSite(user.userId, { mailNotify: false, chatNotify: 'account' });
    await consumer.handler(
      delivered(updateDetected.subject, updateDetected.encode(await updateEvent(chatOnly, user.userId)))
        .message,
    );
    expect(mailsTo(user.email)).toHaveLength(0);
    expect(discord.accepted.filter((m) => m.webhookId === user.webhookId)).toHaveLength(1);

    const mailOnly = await registerSite(user.userId, { mailNotify: true, chatNotify: 'none' });
    await consumer.handler(
      delivered(updateDetected.subject, updateDetected.encode(await updateEvent(mailOnly, user.userId)))
        .message,
    );
    expect(mailsTo(user.email)).toHaveLength(1);
    expect(discord.accepted.filter((m) => m.webhookId === user.webhookId)).toHaveLength(1);
  });

  it('lets only one of two copies handled at the same instant send; the other is handed back until the claim is free', async () => {
    const user = await newUser('en');
    const targetId = await registerSite(user.userId, { mailNotify: true, chatNotify: 'none' });
    // A slow SMTP server: the first copy is still sending when the second one asks, even past
    // the claim's first length, which the sender keeps renewing.
    const slow = await startSmtpServer({ acceptDelayMs: 4_000 });
    try {
      const deliveries = createDeliveryStore(db, { claimMs: 1_500 });
      const consumer = updateConsumer({
        db,
        deliveries,
        mail: openMailTransport(slow.url, MAIL_FROM),
        secretBox,
        profiles,
        blobs,
        discordApiBase: discord.apiBase,
        publicUrl: () => 'https://mimamori.example/',
        webhooks: createWebhookPoster(),
        logger,
        clock: systemClock(),
      });
      const event = await updateEvent(targetId, user.userId);
      const data = updateDetected.encode(event);
      const first = delivered(updateDetected.subject, data);
      const sending = consumer.handler(first.message);
      await slow.waitForIncoming(1, 20_000);
      await new Promise((resolve) => setTimeout(resolve, 2_000));

      const second = delivered(updateDetected.subject, data, 2);
      await consumer.handler(second.message);
      expect(second.settled.nakDelayMs).toBeGreaterThan(0);
      await sending;
      expect(first.settled.nakDelayMs).toBeUndefined();

      const third = delivered(updateDetected.subject, data, 3);
      await consumer.handler(third.message);
      expect(third.settled.nakDelayMs).toBeUndefined();
      expect(slow.messages).toHaveLength(1);
      expect(await attempts(`update:${event.updateId}:email`)).toBe(3);
    } finally {
      await slow.close();
    }
  });

  it('claims a delivery for one copy at a time; a released or run-out claim (a dead sender) lets the next copy send', async () => {
    const ledger = createDeliveryStore(db, { claimMs: 60_000 });
    const id = `claim-test:${randomUUID()}:email`;
    const both = await Promise.all([ledger.claim(id, 'email'), ledger.claim(id, 'email')]);
    expect(both.map((claim) => claim.kind).sort()).toEqual(['held', 'send']);
    const held = both.find((claim) => claim.kind === 'held');
    expect(held?.kind === 'held' && held.retryAfterMs).toBeGreaterThan(30_000);
    const sender = both.find((claim) => claim.kind === 'send');
    if (sender?.kind !== 'send') throw new Error('no copy got the claim');

    // A failed send releases it: the next copy sends at once.
    await ledger.release(id, sender.token);
    const retry = await ledger.claim(id, 'email');
    expect(retry.kind).toBe('send');
    if (retry.kind !== 'send') return;
    expect(await ledger.renew(id, sender.token)).toBe(false);
    expect(await ledger.renew(id, retry.token)).toBe(true);

    // The sender dies mid-send: nobody renews, the claim runs out (set here instead of waited
    // for), and the next copy sends again. That is the one duplicate left.
    await db.query(
      `UPDATE notifier.deliveries SET claimed_until = now() - interval '1 second' WHERE id = $1`,
      [id],
    );
    const afterCrash = await ledger.claim(id, 'email');
    expect(afterCrash.kind).toBe('send');
    if (afterCrash.kind !== 'send') return;
    expect(await ledger.renew(id, retry.token)).toBe(false);

    await ledger.markSent(id);
    expect((await ledger.claim(id, 'email')).kind).toBe('already_sent');
    expect(await attempts(id)).toBe(5);
  });

  it('tells nobody about an update of a deleted site', async () => {
    const user = await newUser('ja');
    const targetId = await registerSite(user.userId, { mailNotify: true, chatNotify: 'account' });
    const [deleted] = targetNoticeConsumers(db).filter((entry) => entry.subject === targetDeleted.subject);
    await deleted?.handler(
      delivered(
        targetDeleted.subject,
        targetDeleted.encode({
          eventId: `targets.deleted:${targetId}`,
          targetId,
          userId: user.userId,
          revision: 2,
        }),
      ).message,
    );
    // A late registration event of an older revision does not bring the site back.
    const [registered] = targetNoticeConsumers(db).filter(
      (entry) => entry.subject === targetRegistered.subject,
    );
    await registered?.handler(
      delivered(
        targetRegistered.subject,
        targetRegistered.encode(
          siteEvent(targetId, user.userId, 1, { mailNotify: true, chatNotify: 'account' }),
        ),
      ).message,
    );
    const consumer = directUpdateConsumer();
    const attempt = delivered(
      updateDetected.subject,
      updateDetected.encode(await updateEvent(targetId, user.userId)),
    );
    await consumer.handler(attempt.message);
    expect(attempt.settled.nakDelayMs).toBeUndefined();
    expect(mailsTo(user.email)).toHaveLength(0);
    expect(discord.calls.filter((call) => call.startsWith(user.webhookId))).toHaveLength(0);
  });

  it('alerts each channel once after 3 failures of one kind in a row, and once when it works again', async () => {
    const user = await newUser('en');
    const targetId = await registerSite(user.userId, { mailNotify: true, chatNotify: 'account' });
    const consumer = checkResultConsumer({
      db,
      deliveries: createDeliveryStore(db),
      mail: openMailTransport(smtp.url, MAIL_FROM),
      secretBox,
      profiles,
      discordApiBase: discord.apiBase,
      publicUrl: () => 'https://mimamori.example/',
      webhooks: createWebhookPoster(),
      logger,
      clock: systemClock(),
    });
    let minute = 0;
    const check = async (outcome: 'error' | 'no_change', code = 'element_not_found', again?: Uint8Array) => {
      minute += 1;
      const data =
        again ??
        checkCompleted.encode({
          eventId: `checked:${minute}`,
          checkId: randomUUID(),
          targetId,
          userId: user.userId,
          dueAt: new Date(Date.UTC(2026, 10, 23, 0, minute)),
          completedAt: new Date(Date.UTC(2026, 10, 23, 0, minute, 5)),
          outcome,
          errorCode: outcome === 'error' ? code : '',
          errorDetail: '',
          updateId: '',
          errorAreaId: outcome === 'error' && code === 'element_not_found' ? 'price' : '',
        });
      await consumer.handler(delivered(checkCompleted.subject, data).message);
      return data;
    };
    const alerts = () => mailsTo(user.email).filter((mail) => mail.subject?.includes('are failing'));
    const recoveries = () => mailsTo(user.email).filter((mail) => mail.subject?.includes('working again'));
    const posts = () => discord.accepted.filter((post) => post.webhookId === user.webhookId);

    // Two timeouts then three of another kind: counted per kind, so the third of that kind alerts.
    await check('error', 'timeout');
    await check('error', 'timeout');
    await check('error');
    await check('error');
    expect(alerts()).toHaveLength(0);
    const third = await check('error');
    expect(alerts()).toHaveLength(1);
    expect(alerts()[0]?.text).toContain('the area “セール価格” was not found on the page');
    expect(alerts()[0]?.text).toContain('Failing since');
    await discord.waitForAccepted(user.webhookId, 1);
    await check('error', 'element_not_found', third);
    await check('error');
    await check('error', 'timeout');
    expect(alerts()).toHaveLength(1);
    expect(posts()).toHaveLength(1);

    const success = await check('no_change');
    expect(recoveries()).toHaveLength(1);
    await discord.waitForAccepted(user.webhookId, 2);
    await check('no_change', '', success);
    await check('no_change');
    expect(recoveries()).toHaveLength(1);
    expect(posts()).toHaveLength(2);

    // A new run alerts again.
    await check('error', 'login_failed');
    await check('error', 'login_failed');
    await check('error', 'login_failed');
    expect(alerts()).toHaveLength(2);
    expect(alerts()[1]?.text).toContain('signing in failed');
    expect(JSON.stringify(alerts()[0]?.to)).toContain(user.extra);
    expect(discord.problems).toEqual([]);
  });

  it('holds back an alert due before the site notice arrived, and sends it on the redelivery after', async () => {
    const user = await newUser('ja');
    const targetId = randomUUID();
    const consumer = checkResultConsumer({
      db,
      deliveries: createDeliveryStore(db),
      mail: openMailTransport(smtp.url, MAIL_FROM),
      secretBox,
      profiles,
      discordApiBase: discord.apiBase,
      publicUrl: () => 'https://mimamori.example/',
      webhooks: createWebhookPoster(),
      logger,
      clock: systemClock(),
    });
    const failed = (minute: number) =>
      checkCompleted.encode({
        eventId: `checked:early-${minute}`,
        checkId: randomUUID(),
        targetId,
        userId: user.userId,
        dueAt: new Date(Date.UTC(2026, 10, 24, 0, minute)),
        completedAt: new Date(Date.UTC(2026, 10, 24, 0, minute, 5)),
        outcome: 'error',
        errorCode: 'unreachable',
        errorDetail: '',
        updateId: '',
        errorAreaId: '',
      });
    await consumer.handler(delivered(checkCompleted.subject, failed(1)).message);
    await consumer.handler(delivered(checkCompleted.subject, failed(2)).message);
    const third = failed(3);
    await expect(consumer.handler(delivered(checkCompleted.subject, third).message)).rejects.toThrow(
      /no notice yet/,
    );
    await registerSite(user.userId, { mailNotify: true, chatNotify: 'none' }, targetId);
    await consumer.handler(delivered(checkCompleted.subject, third).message);
    const alerts = mailsTo(user.email).filter((mail) => mail.subject?.includes('の確認が失敗しています'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.text).toContain('サイトに接続できませんでした');
  });
});

describe('announcing filings over JetStream, SMTP and a Discord stand-in', () => {
  const filingEvent = (userId: string) => {
    const key = `1401202605085${randomBytes(3).toString('hex')}`;
    return {
      eventId: `filing:tdnet:${key}:${userId}`,
      userId,
      followId: randomUUID(),
      followLabel: 'トヨタ自動車株式会社',
      source: 'tdnet',
      filingKey: key,
      companyName: 'トヨタ自動車',
      companyCode: '7203',
      title: '2026年3月期 決算短信〔IFRS〕(連結)',
      documentUrl: `https://www.release.tdnet.info/inbs/${key}.pdf`,
      publishedAt: new Date('2026-05-08T06:30:00Z'),
      seenAt: new Date('2026-05-08T06:31:00Z'),
    };
  };

  it('sends the follower one e-mail and one Discord message, and nothing twice when the event comes again', async () => {
    const user = await newUser('ja');
    const event = filingEvent(user.userId);
    await bus.publish(filingPublished.subject, filingPublished.encode(event), { msgId: event.eventId });

    const [message] = await discord.waitForAccepted(user.webhookId, 1);
    await waitUntil(() => mailsTo(user.email).length > 0, 'the filing mail');
    const mail = mailsTo(user.email)[0] as ParsedMail;
    expect(JSON.stringify(mail.to)).toContain(user.extra);
    expect(mail.subject).toBe('【Mimamori】新しい開示: トヨタ自動車「2026年3月期 決算短信〔IFRS〕(連結)」');
    expect(mail.text).toContain('開示日時: 2026年5月8日 15:30（日本時間）');
    expect(mail.html).toContain(`href="${event.documentUrl}"`);
    expect(message?.payload.embeds[0]).toMatchObject({ title: event.title, url: event.documentUrl });
    expect(message?.files).toEqual([]);

    // Republished (the filings service restarted before its outbox row was marked) and
    // redelivered: both deliveries are looked up, none repeated.
    await bus.publish(filingPublished.subject, filingPublished.encode(event), {
      msgId: `${event.eventId}:again`,
    });
    await waitUntil(
      async () =>
        (await attempts(`${event.eventId}:email`)) === 2 &&
        (await attempts(`${event.eventId}:discord`)) === 2,
      'the second delivery to be handled',
    );
    expect(mailsTo(user.email)).toHaveLength(1);
    expect(discord.accepted.filter((m) => m.webhookId === user.webhookId)).toHaveLength(1);
    expect(discord.problems).toEqual([]);
  });

  it('retries a failing Discord without repeating the e-mail, in English in the follower’s zone', async () => {
    const user = await newUser('en');
    discord.failNext(user.webhookId, { status: 500 });
    const event = filingEvent(user.userId);
    await bus.publish(filingPublished.subject, filingPublished.encode(event), { msgId: event.eventId });
    await discord.waitForAccepted(user.webhookId, 1, 60_000);
    await waitUntil(() => mailsTo(user.email).length > 0, 'the filing mail');
    const mails = mailsTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Mimamori: トヨタ自動車 filed "2026年3月期 決算短信〔IFRS〕(連結)"');
    // America/New_York in May: 06:30 UTC is 02:30.
    expect(mails[0]?.text).toContain('Published: May 8, 2026, 02:30 (Eastern Time)');
    expect(await attempts(`${event.eventId}:discord`)).toBeGreaterThanOrEqual(2);
  });
});
