import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { type ChatAdapter, chatAdapters } from '@mimamori/chat';
import { chatworkStandIn, memoryStandInStore } from '@mimamori/chat-stand-ins';
import { accountV1, chatLinkV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { accountMailRequested, targetDeleted } from '@mimamori/events';
import { createGrpcClient, unary } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { startTestServiceHost, type TestServiceHost } from '@mimamori/test-fixtures';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CHAT_LINKS } from './domain/chat-links.ts';
import { hashSessionToken } from './domain/session-token.ts';
import { createAccountService } from './service.ts';

// The chat link lifecycle through the account service's gRPC, against the Chatwork stand-in, and
// a code platform played by a small adapter of this file (LINE's and Telegram's come later).
let testHost: TestServiceHost;
let db: Db;
let accounts: accountV1.AccountServiceClient;
let links: chatLinkV1.ChatLinkServiceClient;
let standIns: FastifyInstance;
const standInStore = memoryStandInStore();
const secretBox = createSecretBox(generateSecretKey('test'));
const TOKEN = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';

/** A platform that links by a one-time code sent from the chat, as LINE and Telegram do. */
const codePlatform: ChatAdapter = {
  platform: 'telegram',
  enabled: () => true,
  linking: { kind: 'code', startUrl: (code) => `https://t.example/mimamori_bot?start=${code}` },
  send: async () => ({ kind: 'sent' }),
};

beforeAll(async () => {
  standIns = Fastify();
  chatworkStandIn()(standIns, '/dev/chatwork', { store: standInStore, productUrl: () => '', settings: {} });
  const standInUrl = await standIns.listen({ host: '127.0.0.1', port: 0 });
  testHost = await startTestServiceHost('account-chat-links');
  db = testHost.db;
  const running = await runService(
    createAccountService({
      db,
      logger: testHost.logger,
      secretBox,
      chatSettings: { chatwork: { apiBase: `${standInUrl}/dev/chatwork` } },
      chatAdapters: { ...chatAdapters(), telegram: codePlatform },
    }),
    testHost.host,
  );
  accounts = createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress);
  links = createGrpcClient(chatLinkV1.ChatLinkServiceClient, running.grpcAddress);
}, 60_000);

afterAll(async () => {
  accounts?.close();
  links?.close();
  await testHost?.close();
  await standIns?.close();
});

async function signedIn(lang: 'ja' | 'en' = 'ja') {
  const { userId } = await unary(accounts, 'createAccount', {
    email: `c${randomUUID().slice(0, 8)}@example.jp`,
    password: 'abcd1234',
    lang,
  });
  const sessionToken = randomUUID();
  await db.query(
    `INSERT INTO account.sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
    [hashSessionToken(sessionToken), userId],
  );
  return { sessionToken, userId };
}

/** The chat_link_broken mails queued for one user. */
async function brokenMails(userId: string) {
  const { rows } = await db.query<{ payload: Buffer }>(
    'SELECT payload FROM account.outbox WHERE subject = $1 ORDER BY seq',
    [accountMailRequested.subject],
  );
  return rows
    .map((row) => accountMailRequested.decode(row.payload))
    .filter((event) => event.userId === userId && event.kind === 'chat_link_broken');
}

const linkChatwork = (sessionToken: string, roomId: string, targetId = '') =>
  unary(links, 'linkChatByFields', {
    sessionToken,
    platform: 'chatwork',
    targetId,
    fields: { apiToken: TOKEN, roomId },
    relinkId: '',
  });

describe('chat links in the account service', () => {
  it('links Chatwork by its fields, keeps the token sealed, sends the test message and lists no secret', async () => {
    const { sessionToken, userId } = await signedIn();
    const listed = await unary(links, 'listChatLinks', { sessionToken });
    expect(listed.platforms).toContainEqual({
      platform: 'chatwork',
      linking: 'fields',
      fields: [
        { name: 'apiToken', secret: true },
        { name: 'roomId', secret: false },
      ],
    });
    const made = await linkChatwork(sessionToken, 'https://www.chatwork.com/#!rid7001');
    expect(made.link).toMatchObject({
      platform: 'chatwork',
      label: 'Room 7001',
      status: 'linked',
      targetId: '',
    });
    const { rows } = await db.query<{ sealed_credentials: string }>(
      'SELECT sealed_credentials FROM account.chat_links WHERE user_id = $1',
      [userId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.sealed_credentials).not.toContain(TOKEN);
    expect(JSON.stringify(await unary(links, 'listChatLinks', { sessionToken }))).not.toContain(TOKEN);

    const tested = await unary(links, 'testChatLink', { sessionToken, linkId: made.link?.id ?? '' });
    expect(tested).toEqual({ outcome: 'sent', reason: '' });
    const inRoom = (await standInStore.list('chatwork')).filter((record) => record.chat === '7001');
    expect(JSON.stringify(inRoom[0]?.body)).toContain('Mimamori のテストメッセージです');

    // The notifier reads the link sealed, under the context bound to the user and the link.
    const profile = await unary(accounts, 'getNotificationProfile', { userId });
    expect(profile.chatLinks).toHaveLength(1);
    const sealed = profile.chatLinks[0]?.sealedCredentials ?? '';
    expect(JSON.parse(secretBox.open(sealed, `account:${userId}:chat_link:${made.link?.id}`))).toEqual({
      apiToken: TOKEN,
      roomId: '7001',
    });
  });

  it('names the field the platform refused, and refuses a platform this run has not', async () => {
    const { sessionToken } = await signedIn();
    await expect(
      unary(links, 'linkChatByFields', {
        sessionToken,
        platform: 'chatwork',
        targetId: '',
        fields: { apiToken: TOKEN, roomId: 'lobby' },
        relinkId: '',
      }),
    ).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: 'chat_field_invalid:roomId:chatwork_room_invalid',
    });
    await expect(
      unary(links, 'startChatLink', {
        sessionToken,
        platform: 'slack',
        targetId: '',
        redirectUri: '',
        relinkId: '',
      }),
    ).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, details: 'chat_platform_off' });
  });

  it('links by a one-time code once, and refuses the code again', async () => {
    const { sessionToken } = await signedIn();
    const started = await unary(links, 'startChatLink', {
      sessionToken,
      platform: 'telegram',
      targetId: 'site-1',
      redirectUri: '',
      relinkId: '',
    });
    expect(started.code).toMatch(/^[A-Z2-9]{12}$/);
    expect(started.startUrl).toBe(`https://t.example/mimamori_bot?start=${started.code}`);
    const complete = () =>
      unary(links, 'completeChatLinkByCode', {
        platform: 'telegram',
        code: started.code,
        credentials: { chatId: '-100123' },
        label: 'Team chat',
      });
    expect(await complete()).toEqual({ linked: true });
    expect(await complete()).toEqual({ linked: false });
    const listed = await unary(links, 'listChatLinks', { sessionToken });
    expect(listed.links).toMatchObject([{ platform: 'telegram', label: 'Team chat', targetId: 'site-1' }]);
  });

  it('marks a dead link broken once and mails its owner once, in their language; a relink makes it linked', async () => {
    const { sessionToken, userId } = await signedIn('en');
    const made = await linkChatwork(sessionToken, '7002');
    const linkId = made.link?.id ?? '';
    const dead = () =>
      unary(links, 'markChatLinkDead', {
        userId,
        linkId,
        platform: '',
        match: {},
        reason: 'chatwork_token_revoked',
      });
    expect(await dead()).toEqual({ broken: 1 });
    expect(await dead()).toEqual({ broken: 0 });
    const mails = await brokenMails(userId);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      lang: 'en',
      chatPlatform: 'chatwork',
      chatLabel: 'Room 7002',
      chatReason: 'chatwork_token_revoked',
      workspaceName: '',
      memberRole: '',
      inviterName: '',
    });
    const listed = await unary(links, 'listChatLinks', { sessionToken });
    expect(listed.links[0]).toMatchObject({ status: 'broken', brokenReason: 'chatwork_token_revoked' });
    // A broken link is left out of what the notifier sends to.
    expect((await unary(accounts, 'getNotificationProfile', { userId })).chatLinks).toEqual([]);

    const relinked = await unary(links, 'linkChatByFields', {
      sessionToken,
      platform: 'chatwork',
      targetId: '',
      fields: { apiToken: TOKEN, roomId: '7002' },
      relinkId: linkId,
    });
    expect(relinked.link).toMatchObject({ id: linkId, status: 'linked', brokenReason: '' });
  });

  it('marks broken the links an inbound event names by their credentials', async () => {
    const a = await signedIn();
    const b = await signedIn();
    await linkChatwork(a.sessionToken, '7003');
    await linkChatwork(b.sessionToken, '7004');
    const answer = await unary(links, 'markChatLinkDead', {
      userId: '',
      linkId: '',
      platform: 'chatwork',
      match: { roomId: '7003' },
      reason: 'room left',
    });
    expect(answer).toEqual({ broken: 1 });
    expect((await unary(links, 'listChatLinks', { sessionToken: b.sessionToken })).links[0]?.status).toBe(
      'linked',
    );
  });

  it('deletes a link, keeps another account’s out of reach, removes a deleted site’s links and stops at the limit', async () => {
    const a = await signedIn();
    const b = await signedIn();
    const own = await linkChatwork(a.sessionToken, '7005');
    await expect(
      unary(links, 'deleteChatLink', { sessionToken: b.sessionToken, linkId: own.link?.id ?? '' }),
    ).rejects.toMatchObject({ code: status.NOT_FOUND, details: 'chat_link_not_found' });
    await expect(
      unary(links, 'testChatLink', { sessionToken: b.sessionToken, linkId: own.link?.id ?? '' }),
    ).rejects.toMatchObject({ code: status.NOT_FOUND });
    await unary(links, 'deleteChatLink', { sessionToken: a.sessionToken, linkId: own.link?.id ?? '' });
    expect((await unary(links, 'listChatLinks', { sessionToken: a.sessionToken })).links).toEqual([]);

    const targetId = randomUUID();
    await linkChatwork(a.sessionToken, '7006', targetId);
    await linkChatwork(a.sessionToken, '7007');
    const event = {
      eventId: `targets.deleted:${targetId}:2`,
      targetId,
      userId: a.userId,
      revision: 2,
      occurredAt: new Date(),
    };
    await testHost.bus.publish(targetDeleted.subject, targetDeleted.encode(event), { msgId: event.eventId });
    await expect
      .poll(
        async () =>
          (await unary(links, 'listChatLinks', { sessionToken: a.sessionToken })).links.map(
            (link) => link.targetId,
          ),
        {
          timeout: 30_000,
        },
      )
      .toEqual(['']);

    for (let room = 1; room < MAX_CHAT_LINKS; room += 1)
      await linkChatwork(a.sessionToken, String(8000 + room));
    await expect(linkChatwork(a.sessionToken, '9000')).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: 'chat_link_quota_exceeded',
    });
  });
});
