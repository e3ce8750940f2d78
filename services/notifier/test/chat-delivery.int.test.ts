import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountService } from '@mimamori/account';
import { type BlobStore, createFileBlobStore } from '@mimamori/blob-store';
import { type BusMessage, createJetStreamBus, type EventBus, namespacedBus } from '@mimamori/bus';
import type { ChatPlatformSettings } from '@mimamori/chat';
import { chatAdapters } from '@mimamori/chat';
import {
  chatworkStandIn,
  type LineStandInState,
  lineStandIn,
  memoryStandInStore,
  SLACK_STAND_IN_CHANNELS,
  slackStandIn,
  type TelegramStandInState,
  teamsStandIn,
  telegramStandIn,
} from '@mimamori/chat-stand-ins';
import { accountV1, chatLinkV1 } from '@mimamori/contracts';
import { type Db, openPostgres } from '@mimamori/db';
import {
  accountMailRequested,
  checkCompleted,
  filingPublished,
  targetRegistered,
  updateDetected,
} from '@mimamori/events';
import { verifyImageLink } from '@mimamori/image-links';
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
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountProfileClient } from '../src/clients/account-profile-client.ts';
import { chatLinkBreaker } from '../src/clients/chat-link-client.ts';
import { systemClock } from '../src/domain/site-quiet-hours.ts';
import { updateConsumer } from '../src/events/update-consumer.ts';
import { createNotifierService } from '../src/service.ts';
import { createDeliveryStore } from '../src/store/delivery-store.ts';
import { checkCounted } from './check-counted.ts';

// Updates, failure alerts, recoveries and filings reach an account's Chatwork links through the
// Chatwork stand-in (Chatwork's limits enforced), once each; a revoked token breaks the link and
// its owner gets one mail.
const logger = createLogger({ service: 'notifier-chat-test', level: 'silent' });
const secretBox = createSecretBox(generateSecretKey('k1'));
const imageLinkKey = randomBytes(32);
const TOKEN = '0123456789abcdef0123456789abcdef';
const ROOM_WINDOW_MS = 10_000;

let database: FreshDatabase;
let db: Db;
let bus: EventBus;
let shutdown: Shutdown;
let smtp: SmtpServerFixture;
let blobs: BlobStore;
let blobDir: string;
let accounts: accountV1.AccountServiceClient;
let links: chatLinkV1.ChatLinkServiceClient;
let standIns: FastifyInstance;
let chatSettings: ChatPlatformSettings & { chatwork: { apiBase: string } };
/** How far the stand-in's clock is ahead: moved on by the test to open a full room's window again. */
let standInAhead = 0;
let standInBase = '';
const standInStore = memoryStandInStore();
let BEFORE: Uint8Array;
let AFTER: Uint8Array;

const webpPage = async (background: string) =>
  new Uint8Array(
    await sharp({ create: { width: 320, height: 200, channels: 3, background } })
      .webp({ quality: 80 })
      .toBuffer(),
  );

beforeAll(async () => {
  BEFORE = await webpPage('#888888');
  AFTER = await webpPage('#0f766e');
  standIns = Fastify();
  // Every platform's stand-in on one server, with the product-wide secrets they check.
  const settings: ChatPlatformSettings = {};
  const options = {
    store: standInStore,
    productUrl: () => '',
    settings,
    now: () => Date.now() + standInAhead,
  };
  chatworkStandIn({ room: { count: 10, windowMs: ROOM_WINDOW_MS } })(standIns, '/dev/chatwork', options);
  slackStandIn()(standIns, '/dev/slack', options);
  teamsStandIn()(standIns, '/dev/teams', options);
  lineStandIn()(standIns, '/dev/line', options);
  telegramStandIn()(standIns, '/dev/telegram', options);
  standInBase = await standIns.listen({ host: '127.0.0.1', port: 0 });
  const base = (platform: string) => `${standInBase}/dev/${platform}`;
  chatSettings = Object.assign(settings, {
    chatwork: { apiBase: base('chatwork') },
    slack: {
      apiBase: `${base('slack')}/api`,
      oauthBase: base('slack'),
      clientId: 'mimamori-test',
      clientSecret: 'slack-client-secret',
      signingSecret: 'slack-signing-secret',
    },
    teams: { apiBase: base('teams') },
    line: {
      apiBase: base('line'),
      channelAccessToken: 'line-channel-access-token',
      channelSecret: 'line-channel-secret',
      botBasicId: '@mimamori',
      addFriendUrl: `${base('line')}/friend`,
    },
    telegram: {
      apiBase: base('telegram'),
      botToken: '123456:telegram-bot-token',
      botUsername: 'mimamori_test_bot',
      webhookSecret: 'telegram-webhook-secret',
      deepLinkBase: base('telegram'),
    },
  });
  database = await createFreshDatabase();
  db = openPostgres(database.url);
  bus = namespacedBus(
    await createJetStreamBus({ servers: testNatsUrl() }),
    `c${randomBytes(4).toString('hex')}`,
  );
  shutdown = createShutdown({ logger, timeoutMs: 5_000 });
  smtp = await startSmtpServer();
  blobDir = await mkdtemp(join(tmpdir(), 'notifier-chat-blobs-'));
  blobs = await createFileBlobStore(blobDir);
  const host = { db, bus, logger, shutdown, grpc: { host: '127.0.0.1', port: 0 } };
  const account = await runService(createAccountService({ db, logger, secretBox, chatSettings }), host);
  accounts = createGrpcClient(accountV1.AccountServiceClient, account.grpcAddress);
  links = createGrpcClient(chatLinkV1.ChatLinkServiceClient, account.grpcAddress);
  await runService(
    createNotifierService({
      db,
      logger,
      mail: openMailTransport(smtp.url, 'Mimamori <no-reply@mimamori.local>'),
      secretBox,
      publicUrl: () => 'https://mimamori.example/',
      updates: {
        profiles: accountProfileClient(() =>
          createGrpcClient(accountV1.AccountServiceClient, account.grpcAddress),
        ),
        blobs,
        chat: {
          settings: chatSettings,
          links: chatLinkBreaker(() =>
            createGrpcClient(chatLinkV1.ChatLinkServiceClient, account.grpcAddress),
          ),
          imageLinkKey,
        },
      },
    }),
    host,
  );
}, 60_000);

afterAll(async () => {
  accounts?.close();
  links?.close();
  await shutdown?.run('test finished');
  await bus?.close();
  await db?.close();
  await database?.drop();
  await smtp?.close();
  await blobs?.close();
  await standIns?.close();
  if (blobDir) await rm(blobDir, { recursive: true, force: true });
});

async function waitUntil(
  probe: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 30_000,
  state?: () => Promise<unknown>,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}${state ? `: ${JSON.stringify(await state())}` : ''}`);
}

/** A signed-in account with a site whose chat setting is `chatNotify`, and a Chatwork link in `roomId`. */
async function newUser(roomId: string, chatNotify: 'account' | 'site' = 'account', lang: 'ja' | 'en' = 'ja') {
  const { userId, email, sessionToken } = await signedIn(lang);
  const targetId = randomUUID();
  const linked = await unary(links, 'linkChatByFields', {
    sessionToken,
    platform: 'chatwork',
    targetId: chatNotify === 'site' ? targetId : '',
    fields: { apiToken: TOKEN, roomId },
    relinkId: '',
  });
  await registerSite(userId, targetId, chatNotify);
  return { userId, email, sessionToken, targetId, linkId: linked.link?.id ?? '' };
}

async function signedIn(lang: 'ja' | 'en' = 'ja') {
  const email = `c${randomBytes(4).toString('hex')}@example.jp`;
  const { userId } = await unary(accounts, 'createAccount', { email, password: 'abcd1234', lang });
  const sessionToken = randomUUID();
  await db.query(
    `INSERT INTO account.sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
    [createHash('sha256').update(sessionToken).digest('base64url'), userId],
  );
  return { userId, email, sessionToken };
}

/** Registers the site with the notifier and waits until it knows it. */
async function registerSite(
  userId: string,
  targetId: string,
  chatNotify: 'account' | 'site',
  silenceAlertDays = 0,
) {
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
      chatNotify,
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
}

async function updateEvent(targetId: string, userId: string) {
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
    notify: true,
    matched: [],
    areas: [
      {
        areaId: 'price',
        diffText: '- 1,200円\n+ 980円 セール',
        added: ['980円 セール'],
        removed: ['1,200円'],
        summaryJa: '1,200円 → 980円（-18%）',
        summaryEn: '1,200円 → 980円 (-18%)',
      },
    ],
    beforeScreenshotBlobKey: before,
    afterScreenshotBlobKey: after,
  };
}

/** The site's failure streak as the notifier keeps it, for a failed wait's message. */
async function streak(targetId: string) {
  const { rows } = await db.query('SELECT * FROM notifier.error_streaks WHERE target_id = $1', [targetId]);
  return rows[0] ?? null;
}

async function delivery(id: string) {
  const { rows } = await db.query<{ status: string; attempts: number }>(
    'SELECT status, attempts FROM notifier.deliveries WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}

const inRoom = async (roomId: string) =>
  (await standInStore.list('chatwork')).filter((record) => record.chat === roomId).reverse();
const text = (record: { body: unknown } | undefined) =>
  (record?.body as { body?: string } | undefined)?.body ?? '';

describe('chat link deliveries', () => {
  it('posts an update to the account-wide Chatwork link with both pictures, once, and not to another site’s link', async () => {
    const user = await newUser('501');
    const other = await newUser('502', 'site');
    const event = await updateEvent(user.targetId, user.userId);
    await bus.publish(updateDetected.subject, updateDetected.encode(event), { msgId: event.eventId });
    const id = `update:${event.updateId}:chat:${user.linkId}`;
    await waitUntil(async () => (await delivery(id))?.status === 'sent', 'the chat delivery');
    const posted = await inRoom('501');
    expect(posted).toHaveLength(3);
    expect(text(posted[0])).toContain('[info][title]1,200円 → 980円（-18%）｜価格ページ[/title]');
    expect(text(posted[0])).toContain('+ 980円 セール');
    expect(text(posted[0])).toContain(`履歴を見る: https://mimamori.example/target2?id=${user.targetId}`);
    // WebP as stored becomes JPEG, which every platform shows.
    expect(posted.slice(1).map((record) => record.files[0]?.filename)).toEqual(['before.jpeg', 'after.jpeg']);
    expect(posted.slice(1).map((record) => (record.body as { message: string }).message)).toEqual([
      '変更前',
      '変更後',
    ]);

    // The same event again (past the duplicate window) posts nothing twice.
    await bus.publish(updateDetected.subject, updateDetected.encode(event), {
      msgId: `${event.eventId}:again`,
    });
    await waitUntil(async () => (await delivery(id))?.attempts === 2, 'the second copy');
    expect(await inRoom('501')).toHaveLength(3);
    expect(await inRoom('502')).toHaveLength(0);
    expect(other.linkId).not.toBe('');
  });

  it('builds the pictures’ public links under PUBLIC_URL, signed with the image link key', async () => {
    const user = await newUser('503');
    const event = await updateEvent(user.targetId, user.userId);
    const consumer = updateConsumer({
      db,
      clock: systemClock(),
      deliveries: createDeliveryStore(db),
      mail: openMailTransport(smtp.url, 'Mimamori <no-reply@mimamori.local>'),
      secretBox,
      profiles: accountProfileClient(() => accounts),
      blobs,
      discordApiBase: 'https://discord.com',
      publicUrl: () => 'https://mimamori.example/',
      webhooks: createWebhookPoster({ allow: [] }),
      logger,
      chat: {
        adapters: {
          ...chatAdapters(),
          chatwork: {
            platform: 'chatwork',
            enabled: () => true,
            linking: { kind: 'code', startUrl: () => '' },
            async send(_destination, message) {
              seen.push(...message.images.map((image) => image.publicUrl ?? ''));
              return { kind: 'sent' };
            },
          },
        },
        settings: chatSettings,
        links: { markDead: async () => undefined },
        imageLinkKey,
      },
    });
    const seen: string[] = [];
    await consumer.handler(copy(updateDetected.encode(event), 1).message);
    expect(seen).toHaveLength(2);
    const claims = seen.map((address) => {
      const url = new URL(address);
      expect(`${url.origin}${url.pathname.slice(0, 3)}`).toBe('https://mimamori.example/i/');
      // The JPEG the gateway makes of the stored picture: every URL-only platform takes JPEG.
      expect(url.searchParams.get('jpeg')).toBe('1');
      return verifyImageLink(imageLinkKey, url.pathname.slice(3), Date.now() / 1000);
    });
    expect(claims.map((claim) => claim?.blobKey)).toEqual([
      event.beforeScreenshotBlobKey,
      event.afterScreenshotBlobKey,
    ]);
  });

  it("honours a full room's 429: the event comes back after Chatwork's reset and the update goes once", async () => {
    const user = await newUser('504');
    // Someone else filled the room's window (10 posts per 10 s).
    for (let k = 0; k < 10; k++) {
      const answer = await fetch(`${chatSettings.chatwork.apiBase}/v2/rooms/504/messages`, {
        method: 'POST',
        headers: { 'x-chatworktoken': TOKEN },
        body: new URLSearchParams({ body: `busy ${k}` }),
      });
      expect(answer.status).toBe(200);
    }
    const event = await updateEvent(user.targetId, user.userId);
    const consumer = directConsumer();
    const first = copy(updateDetected.encode(event), 1);
    await consumer.handler(first.message);
    expect(first.settled.nakDelayMs).toBeGreaterThan(0);
    expect(first.settled.nakDelayMs).toBeLessThanOrEqual(ROOM_WINDOW_MS + 1_000);
    const id = `update:${event.updateId}:chat:${user.linkId}`;
    expect((await delivery(id))?.status).not.toBe('sent');
    expect(await inRoom('504')).toHaveLength(10);

    standInAhead += ROOM_WINDOW_MS + 1_000;
    const second = copy(updateDetected.encode(event), 2);
    await consumer.handler(second.message);
    expect(second.settled.nakDelayMs).toBeUndefined();
    expect((await delivery(id))?.status).toBe('sent');
    expect((await inRoom('504')).map(text).filter((body) => body.includes('価格ページ'))).toHaveLength(1);
  });

  it('breaks the link when its token is revoked, mails its owner once and posts nothing more', async () => {
    // Its own token, so revoking it leaves the other tests' links alone.
    const user = await newUser('505', 'account', 'en');
    const revokedToken = 'fedcba9876543210fedcba9876543210';
    await unary(links, 'linkChatByFields', {
      sessionToken: user.sessionToken,
      platform: 'chatwork',
      targetId: '',
      fields: { apiToken: revokedToken, roomId: '505' },
      relinkId: user.linkId,
    });
    const revoked = await standIns.inject({
      method: 'POST',
      url: '/dev/chatwork/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${createHash('sha256').update(revokedToken).digest('hex')}`,
    });
    expect(revoked.statusCode).toBe(303);

    const event = await updateEvent(user.targetId, user.userId);
    await bus.publish(updateDetected.subject, updateDetected.encode(event), { msgId: event.eventId });
    const id = `update:${event.updateId}:chat:${user.linkId}`;
    await waitUntil(async () => (await delivery(id))?.status === 'given_up', 'the dead delivery');
    const listed = await unary(links, 'listChatLinks', { sessionToken: user.sessionToken });
    expect(listed.links[0]).toMatchObject({ status: 'broken', brokenReason: 'chatwork_token_revoked' });
    await waitUntil(() => mailsTo(user.email).length === 1, 'the broken-link mail');
    expect(mailsTo(user.email)[0]?.subject).toBe('Mimamori: notifications to Chatwork have stopped');
    expect(mailsTo(user.email)[0]?.text).toContain('https://mimamori.example/account');

    // A later update does not go to the broken link, and no second mail is sent.
    const next = await updateEvent(user.targetId, user.userId);
    const later = copy(updateDetected.encode(next), 1);
    await directConsumer().handler(later.message);
    expect(later.settled.nakDelayMs).toBeUndefined();
    expect(await delivery(`update:${next.updateId}:chat:${user.linkId}`)).toBeNull();
    expect(await inRoom('505')).toHaveLength(0);
    expect(await brokenMails(user.userId)).toBe(1);
  });

  it('tells the site’s link once that it keeps failing and once that it works again, and the account-wide link of a filing', async () => {
    const user = await newUser('506', 'site');
    const start = Date.parse('2026-11-23T14:00:00Z');
    const run = new Date(start).toISOString();
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
    for (const id of [`failure:${user.targetId}:${run}`, `recovered:${user.targetId}:${run}`]) {
      await waitUntil(
        async () => (await delivery(`${id}:chat:${user.linkId}`))?.status === 'sent',
        id,
        30_000,
        async () => ({
          delivery: await delivery(`${id}:chat:${user.linkId}`),
          streak: await streak(user.targetId),
        }),
      );
    }
    const posted = (await inRoom('506')).map(text);
    expect(posted).toHaveLength(2);
    expect(posted[0]).toContain('「価格ページ」の確認が失敗しています');
    expect(posted[1]).toContain('「価格ページ」の確認が復旧しました');

    // A filing is the account's, not a site's: it goes to the account-wide links.
    const wide = await newUser('507');
    const filing = {
      eventId: `filing:${randomUUID()}:${wide.userId}`,
      userId: wide.userId,
      followId: randomUUID(),
      followLabel: 'トヨタ自動車',
      source: 'tdnet',
      filingKey: randomUUID(),
      companyName: 'トヨタ自動車',
      companyCode: '7203',
      title: '決算短信',
      documentUrl: 'https://www.release.tdnet.info/inbs/140120250508516000.pdf',
      publishedAt: new Date('2026-11-23T06:00:00Z'),
      seenAt: new Date('2026-11-23T06:01:00Z'),
    };
    await bus.publish(filingPublished.subject, filingPublished.encode(filing), { msgId: filing.eventId });
    await waitUntil(
      async () => (await delivery(`${filing.eventId}:chat:${wide.linkId}`))?.status === 'sent',
      'the filing',
    );
    const filed = (await inRoom('507')).map(text);
    expect(filed).toHaveLength(1);
    expect(filed[0]).toContain('[title]決算短信[/title]');
    expect(filed[0]).toContain('トヨタ自動車 (7203)');
  });
});

/** One platform as the account links it in this test, and as its stand-in shows what it received. */
interface PlatformCase {
  platform: 'chatwork' | 'slack' | 'teams' | 'line' | 'telegram';
  /** Links the account-wide chat `n` (this test's own) and answers its chat id on the stand-in. */
  link(sessionToken: string, n: number): Promise<{ linkId: string; chat: string }>;
  /** Plays the platform's side ending the link so the next send is answered dead, with the reason it breaks for. */
  kill?: { end(chat: string): Promise<void>; reason: string };
}

/** A code link (LINE, Telegram) as the gateway completes it once the platform's callback names the code. */
async function linkByCode(
  sessionToken: string,
  platform: 'line' | 'telegram',
  credentials: Record<string, string>,
) {
  const started = await unary(links, 'startChatLink', {
    sessionToken,
    platform,
    targetId: '',
    redirectUri: '',
    relinkId: '',
  });
  expect(
    await unary(links, 'completeChatLinkByCode', {
      platform,
      code: started.code,
      credentials,
      label: platform,
    }),
  ).toEqual({
    linked: true,
  });
  const listed = await unary(links, 'listChatLinks', { sessionToken });
  return listed.links.find((link) => link.platform === platform)?.id ?? '';
}

const SLACK_REDIRECT = 'https://mimamori.example/api/v2/chat-links/oauth';

const PLATFORMS: PlatformCase[] = [
  {
    platform: 'chatwork',
    async link(sessionToken, n) {
      const chat = String(600 + n);
      const token = `${TOKEN.slice(0, 30)}${n}`.padEnd(32, '0');
      const linked = await unary(links, 'linkChatByFields', {
        sessionToken,
        platform: 'chatwork',
        targetId: '',
        fields: { apiToken: token, roomId: chat },
        relinkId: '',
      });
      return { linkId: linked.link?.id ?? '', chat };
    },
  },
  {
    platform: 'slack',
    // Slack's consent page as the browser posts it: the channel picked, allowed; the code comes back to the product.
    async link(sessionToken, n) {
      const chat = SLACK_STAND_IN_CHANNELS[n]?.id ?? '';
      const started = await unary(links, 'startChatLink', {
        sessionToken,
        platform: 'slack',
        targetId: '',
        redirectUri: SLACK_REDIRECT,
        relinkId: '',
      });
      const state = new URL(started.authorizeUrl).searchParams.get('state') ?? '';
      const approved = await fetch(`${standInBase}/dev/slack/oauth/v2/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          redirect_uri: SLACK_REDIRECT,
          state,
          channel: chat,
          decision: 'allow',
          scope: 'chat:write,files:write,channels:read,incoming-webhook',
        }),
        redirect: 'manual',
      });
      const code = new URL(approved.headers.get('location') ?? '').searchParams.get('code') ?? '';
      const linked = await unary(links, 'completeChatLinkByOauth', {
        sessionToken,
        platform: 'slack',
        state,
        code,
        redirectUri: SLACK_REDIRECT,
      });
      return { linkId: linked.link?.id ?? '', chat };
    },
    kill: {
      // The workspace's admin revokes the app's tokens.
      async end() {
        const state = await standInStore.readState<{ tokens: Record<string, { revoked: boolean }> }>(
          'slack',
          {
            tokens: {},
          },
        );
        for (const token of Object.values(state.tokens)) token.revoked = true;
        await standInStore.writeState('slack', state);
      },
      reason: 'slack_token_revoked',
    },
  },
  {
    platform: 'teams',
    async link(sessionToken, n) {
      const chat = `int-flow-${n}`;
      const linked = await unary(links, 'linkChatByFields', {
        sessionToken,
        platform: 'teams',
        targetId: '',
        fields: {
          url: `https://default0000.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/${chat}/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=int-${n}`,
        },
        relinkId: '',
      });
      return { linkId: linked.link?.id ?? '', chat };
    },
    kill: {
      async end(chat) {
        const state = await standInStore.readState<{ off: string[] }>('teams', { off: [] });
        await standInStore.writeState('teams', { ...state, off: [...state.off, chat] });
      },
      reason: 'teams_workflow_turned_off',
    },
  },
  {
    platform: 'line',
    // The user added the official account as a friend (the stand-in's state), then sent the code.
    async link(sessionToken, n) {
      const chat = `U${String(n).padStart(32, '0')}`;
      const state = await standInStore.readState<LineStandInState>('line', {
        me: chat,
        users: {},
        limit: 'none',
        retryKeys: [],
        replyTokens: {},
        lastHook: '',
      });
      await standInStore.writeState('line', {
        ...state,
        users: { ...state.users, [chat]: { friend: true } },
      });
      return { linkId: await linkByCode(sessionToken, 'line', { to: chat }), chat };
    },
    // LINE answers a blocked account's push with 200 and drops it; its unfollow callback ends the link (e2e).
  },
  {
    platform: 'telegram',
    async link(sessionToken, n) {
      const chat = String(800_000_000 + n);
      await setTelegramChat(chat, false);
      return { linkId: await linkByCode(sessionToken, 'telegram', { chatId: chat }), chat };
    },
    kill: { end: (chat) => setTelegramChat(chat, true), reason: 'telegram_blocked' },
  },
];

/** The Telegram user behind the private chat pressed Start (or blocked the bot), as the stand-in keeps it. */
async function setTelegramChat(chat: string, blocked: boolean) {
  const state = await standInStore.readState<TelegramStandInState>('telegram', {
    chats: {},
    nextUpdateId: 100_000_001,
    nextMessageId: 1,
    lastHook: '',
  });
  await standInStore.writeState('telegram', {
    ...state,
    chats: { ...state.chats, [chat]: { type: 'private', blocked } },
  });
}

/**
 * Moves the stand-ins' clock past their per-chat pace (Slack and Telegram take one message a
 * second per chat) so the next event's message is not answered 429 and held for its Retry-After.
 */
const nextSecond = () => {
  standInAhead += 1_100;
};

/** What the chat received: each message's request as text, and how many distinct pictures (uploaded or by link). */
async function receivedBy(platform: string, chat: string) {
  const records = (await standInStore.list(platform)).filter((record) => record.chat === chat).reverse();
  const bodies = records.map((record) => JSON.stringify(record.body));
  const linked = new Set(
    bodies.flatMap((body) => body.match(/https:\/\/mimamori\.example\/i\/[^"?\\]+/g) ?? []),
  );
  return {
    texts: bodies,
    pictures: records.reduce((sum, record) => sum + record.files.length, 0) + linked.size,
  };
}

/** Publishes the site's checks, each counted before the next. */
async function checks(user: { userId: string; targetId: string }, runs: [Date, 'no_change' | 'error'][]) {
  for (const [dueAt, outcome] of runs) {
    const checkId = randomUUID();
    const event = {
      eventId: `checks.completed:${checkId}`,
      checkId,
      targetId: user.targetId,
      userId: user.userId,
      dueAt,
      completedAt: dueAt,
      outcome,
      errorCode: outcome === 'error' ? 'element_not_found' : '',
      errorDetail: '',
      updateId: '',
      errorAreaId: outcome === 'error' ? 'price' : '',
    };
    await bus.publish(checkCompleted.subject, checkCompleted.encode(event), { msgId: event.eventId });
    await waitUntil(async () => {
      return checkCounted(db, {
        targetId: user.targetId,
        outcome: event.outcome,
        dueAt: event.dueAt,
        completedAt: event.completedAt,
      });
    }, `the check of ${dueAt.toISOString()} counted`);
  }
}

// Every event on every platform, through the real notifier to each platform's stand-in: one
// account-wide link per platform hears an update with both pictures, a silence alert, a failure
// alert, the recovery and a filing; a dead answer breaks a link and mails its owner once.
describe.each(PLATFORMS)('every event on $platform', (platform) => {
  it('delivers an update with both pictures, a silence alert, a failure alert, the recovery and a filing, once each', async () => {
    const user = await signedIn();
    const { linkId, chat } = await platform.link(user.sessionToken, 0);
    expect(linkId).not.toBe('');
    const site = { userId: user.userId, targetId: randomUUID() };
    await registerSite(user.userId, site.targetId, 'account', 3);
    const sent = async (id: string) =>
      waitUntil(
        async () => (await delivery(`${id}:chat:${linkId}`))?.status === 'sent',
        `${platform.platform} ${id}`,
        30_000,
        async () => ({
          delivery: await delivery(`${id}:chat:${linkId}`),
          streak: await streak(site.targetId),
        }),
      );

    const update = await updateEvent(site.targetId, user.userId);
    await bus.publish(updateDetected.subject, updateDetected.encode(update), { msgId: update.eventId });
    await sent(`update:${update.updateId}`);
    const updated = await receivedBy(platform.platform, chat);
    expect(updated.texts.join('\n')).toContain('価格ページ');
    expect(updated.pictures).toBe(2);

    // Three days unchanged (silence), then five failed checks (an alert after three) and one that works.
    const day0 = new Date('2026-12-01T00:00:00Z');
    const day3 = new Date('2026-12-04T00:00:00Z');
    const minute = (k: number) => new Date(day3.getTime() + k * 60_000);
    nextSecond();
    await checks(site, [
      [day0, 'no_change'],
      [day3, 'no_change'],
    ]);
    await sent(`silence:${site.targetId}:${day0.toISOString()}`);
    nextSecond();
    await checks(
      site,
      [1, 2, 3, 4, 5].map((k) => [minute(k), 'error']),
    );
    await sent(`failure:${site.targetId}:${minute(1).toISOString()}`);
    nextSecond();
    await checks(site, [[minute(6), 'no_change']]);
    await sent(`recovered:${site.targetId}:${minute(1).toISOString()}`);
    nextSecond();

    const filing = {
      eventId: `filing:${randomUUID()}:${user.userId}`,
      userId: user.userId,
      followId: randomUUID(),
      followLabel: 'トヨタ自動車',
      source: 'tdnet',
      filingKey: randomUUID(),
      companyName: 'トヨタ自動車',
      companyCode: '7203',
      title: '決算短信',
      documentUrl: 'https://www.release.tdnet.info/inbs/140120250508516000.pdf',
      publishedAt: new Date('2026-11-23T06:00:00Z'),
      seenAt: new Date('2026-11-23T06:01:00Z'),
    };
    await bus.publish(filingPublished.subject, filingPublished.encode(filing), { msgId: filing.eventId });
    await sent(filing.eventId);

    const all = (await receivedBy(platform.platform, chat)).texts.join('\n');
    for (const words of ['日間変更がありません', '確認が失敗しています', '確認が復旧しました', '決算短信']) {
      expect(all, words).toContain(words);
    }
  });
});

describe.each(PLATFORMS.filter((platform) => platform.kill))('a dead $platform', (platform) => {
  it('breaks the link on a dead answer and mails its owner once', async () => {
    const kill = platform.kill as NonNullable<PlatformCase['kill']>;
    const user = await signedIn('en');
    const { linkId, chat } = await platform.link(user.sessionToken, 1);
    const targetId = randomUUID();
    await registerSite(user.userId, targetId, 'account');
    await kill.end(chat);
    const event = await updateEvent(targetId, user.userId);
    await bus.publish(updateDetected.subject, updateDetected.encode(event), { msgId: event.eventId });
    await waitUntil(
      async () => (await delivery(`update:${event.updateId}:chat:${linkId}`))?.status === 'given_up',
      'the dead delivery',
    );
    const listed = await unary(links, 'listChatLinks', { sessionToken: user.sessionToken });
    expect(listed.links[0]).toMatchObject({ status: 'broken', brokenReason: kill.reason });
    await waitUntil(() => mailsTo(user.email).length === 1, 'the broken-link mail');
    expect(await brokenMails(user.userId)).toBe(1);
  });
});

/** The broken-link mails the account service asked for one user. */
async function brokenMails(userId: string): Promise<number> {
  const { rows } = await db.query<{ payload: Buffer }>(
    'SELECT payload FROM account.outbox WHERE subject = $1',
    [accountMailRequested.subject],
  );
  return rows
    .map((row) => accountMailRequested.decode(row.payload))
    .filter((mail) => mail.userId === userId && mail.kind === 'chat_link_broken').length;
}

function mailsTo(address: string) {
  return smtp.messages.filter((message) => JSON.stringify(message.to).includes(address));
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

function directConsumer() {
  return updateConsumer({
    db,
    clock: systemClock(),
    deliveries: createDeliveryStore(db),
    mail: openMailTransport(smtp.url, 'Mimamori <no-reply@mimamori.local>'),
    secretBox,
    profiles: accountProfileClient(() => accounts),
    blobs,
    discordApiBase: 'https://discord.com',
    publicUrl: () => 'https://mimamori.example/',
    webhooks: createWebhookPoster({ allow: [] }),
    logger,
    chat: {
      adapters: chatAdapters(),
      settings: chatSettings,
      links: { markDead: async () => undefined },
      imageLinkKey: null,
    },
  });
}
