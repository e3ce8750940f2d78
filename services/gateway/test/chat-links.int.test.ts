import { createHash, createHmac, randomUUID } from 'node:crypto';
import { createAccountService } from '@mimamori/account';
import { type ChatAdapter, type ChatPlatformSettings, chatAdapters } from '@mimamori/chat';
import { accountV1, chatLinkV1 } from '@mimamori/contracts';
import { createGrpcClient, unary } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { startTestServiceHost, type TestServiceHost } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../src/gateway.ts';
import { SESSION_COOKIE } from '../src/http/session-cookie.ts';
import { TestBrowser } from './accounts/test-browser.ts';

// The platforms' side of the chat link routes: a verified inbound callback links a code or breaks
// a link, a forged one is refused before anything is done, and an OAuth return links only for the
// user whose state it carries. The platforms are played by small adapters of this file (the real
// LINE, Telegram and Slack adapters have their own tests against their stand-ins).
const SECRET = 'inbound-signing-secret';
const sign = (body: string) => createHmac('sha256', SECRET).update(body).digest('base64');

/** A code platform whose callbacks carry an HMAC of the raw body, as LINE's and Telegram's do in their ways. */
const codePlatform: ChatAdapter = {
  platform: 'telegram',
  enabled: () => true,
  linking: { kind: 'code', startUrl: (code) => `https://t.example/bot?start=${code}` },
  send: async () => ({ kind: 'sent' }),
  async inbound(request) {
    const given = request.headers['x-test-signature'] ?? '';
    if (given !== sign(request.rawBody.toString('utf8'))) return { kind: 'rejected', reason: 'signature' };
    const { start, chat, blocked } = JSON.parse(request.rawBody.toString('utf8')) as {
      start?: string;
      chat: string;
      blocked?: boolean;
    };
    replies.length = 0;
    return {
      kind: 'accepted',
      events: blocked
        ? [{ kind: 'dead', match: { chatId: chat }, reason: 'telegram_bot_blocked' }]
        : [{ kind: 'link', code: start ?? '', credentials: { chatId: chat }, label: `Chat ${chat}` }],
      reply: async (_event, linked) => {
        replies.push(linked);
      },
    };
  },
};
const replies: boolean[] = [];

const oauthPlatform: ChatAdapter = {
  platform: 'slack',
  enabled: () => true,
  linking: {
    kind: 'oauth',
    authorizeUrl: (state, redirectUri) =>
      `https://slack.example/oauth/v2/authorize?${new URLSearchParams({ state, redirect_uri: redirectUri })}`,
    exchange: async (code) =>
      code === 'good'
        ? { ok: true, credentials: { botToken: 'xoxb-1', channelId: 'C1' }, label: '#general' }
        : { ok: false, reason: 'invalid_code' },
  },
  send: async () => ({ kind: 'sent' }),
  // As Slack checks its events URL when it is saved: the challenge comes back as the body.
  async inbound(request) {
    if ((request.headers['x-test-signature'] ?? '') !== sign(request.rawBody.toString('utf8')))
      return { kind: 'rejected', reason: 'signature' };
    const { challenge } = JSON.parse(request.rawBody.toString('utf8')) as { challenge: string };
    return { kind: 'accepted', events: [], response: { contentType: 'text/plain', body: challenge } };
  },
};

let testHost: TestServiceHost;
let gateway: Gateway;
let accounts: accountV1.AccountServiceClient;
let links: chatLinkV1.ChatLinkServiceClient;
// Chatwork's own adapter refuses a malformed token before asking anyone: no stand-in is needed.
const settings: ChatPlatformSettings = { chatwork: { apiBase: 'http://127.0.0.1:9' } };
const adapters = { ...chatAdapters(), telegram: codePlatform, slack: oauthPlatform };

beforeAll(async () => {
  testHost = await startTestServiceHost('gateway-chat-links');
  const running = await runService(
    createAccountService({
      db: testHost.db,
      logger: testHost.logger,
      secretBox: createSecretBox(generateSecretKey('test')),
      chatSettings: settings,
      chatAdapters: adapters,
    }),
    testHost.host,
  );
  accounts = createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress);
  links = createGrpcClient(chatLinkV1.ChatLinkServiceClient, running.grpcAddress);
  gateway = await createGateway({
    logger: testHost.logger,
    account: accounts,
    chatLinks: links,
    chat: { settings, adapters },
    publicUrl: 'https://mimamori.example',
    isShuttingDown: () => false,
  });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  accounts?.close();
  links?.close();
  await testHost?.close();
});

/** A browser signed in as a new account. */
async function signedIn(): Promise<TestBrowser> {
  const { userId } = await unary(accounts, 'createAccount', {
    email: `g${randomUUID().slice(0, 8)}@example.jp`,
    password: 'abcd1234',
    lang: 'ja',
  });
  const token = randomUUID();
  await testHost.db.query(
    `INSERT INTO account.sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
    [createHash('sha256').update(token).digest('base64url'), userId],
  );
  const browser = new TestBrowser(gateway.app);
  await browser.get('/healthz');
  browser.cookies.set(SESSION_COOKIE, token);
  return browser;
}

const hook = (platform: string, body: string, signature: string) =>
  gateway.app.inject({
    method: 'POST',
    url: `/hooks/${platform}`,
    headers: { 'content-type': 'application/json', 'x-test-signature': signature },
    payload: body,
  });

describe('chat links: the platforms’ side', () => {
  it("answers with the body the platform's adapter asks for (Slack's url_verification challenge)", async () => {
    const body = JSON.stringify({ type: 'url_verification', challenge: 'challenge-3f9a' });
    const answered = await hook('slack', body, sign(body));
    expect(answered.statusCode).toBe(200);
    expect(answered.headers['content-type']).toMatch(/^text\/plain/);
    expect(answered.body).toBe('challenge-3f9a');
    expect((await hook('slack', body, 'forged')).statusCode).toBe(401);
  });

  it('links the chat a verified callback brings the code from; refuses a forged one, and the code twice', async () => {
    const browser = await signedIn();
    const started = await browser.post('/api/v2/chat-links/start', { platform: 'telegram' });
    expect(started.status, started.text).toBe(200);
    const code = String(started.body.code);
    expect(started.body.start_url).toBe(`https://t.example/bot?start=${code}`);

    const body = JSON.stringify({ start: code, chat: '42' });
    // Posted without the SPA's CSRF header, as the platform posts; a forgery is refused first.
    expect((await hook('telegram', body, 'forged')).statusCode).toBe(401);
    expect((await browser.get('/api/v2/chat-links')).body.links).toEqual([]);
    expect((await hook('nowhere', body, sign(body))).statusCode).toBe(404);

    expect((await hook('telegram', body, sign(body))).statusCode).toBe(200);
    expect(replies).toEqual([true]);
    const listed = await browser.get('/api/v2/chat-links');
    expect(listed.body.links).toMatchObject([{ platform: 'telegram', label: 'Chat 42', status: 'linked' }]);
    expect((await hook('telegram', body, sign(body))).statusCode).toBe(200);
    expect(replies).toEqual([false]);
    expect((listed.body.links as unknown[]).length).toBe(1);

    // The chat blocks the bot: the platform says so, the link breaks.
    const blocked = JSON.stringify({ chat: '42', blocked: true });
    expect((await hook('telegram', blocked, sign(blocked))).statusCode).toBe(200);
    expect((await browser.get('/api/v2/chat-links')).body.links).toMatchObject([
      { status: 'broken', broken_reason: 'telegram_bot_blocked' },
    ]);
  });

  it('completes an OAuth return only for the user whose state it carries', async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    const started = await alice.post('/api/v2/chat-links/start', { platform: 'slack' });
    expect(started.status, started.text).toBe(200);
    const authorize = new URL(String(started.body.authorize_url));
    expect(authorize.searchParams.get('redirect_uri')).toBe(
      'https://mimamori.example/chat/oauth/slack/callback',
    );
    const state = authorize.searchParams.get('state') ?? '';

    const stolen = await bob.get(`/chat/oauth/slack/callback?code=good&state=${state}`);
    expect(stolen.status).toBe(302);
    expect(stolen.headers.location).toBe('/account?chat_link_error=chat_link_code_invalid');
    expect((await bob.get('/api/v2/chat-links')).body.links).toEqual([]);

    const own = await alice.get(`/chat/oauth/slack/callback?code=good&state=${state}`);
    expect(own.headers.location).toBe('/account?chat_linked=slack');
    expect((await alice.get('/api/v2/chat-links')).body.links).toMatchObject([
      { platform: 'slack', label: '#general', status: 'linked' },
    ]);
    // The state is used up.
    const again = await alice.get(`/chat/oauth/slack/callback?code=good&state=${state}`);
    expect(again.headers.location).toBe('/account?chat_link_error=chat_link_code_invalid');
  });

  it('names the field a platform refused', async () => {
    const browser = await signedIn();
    const refused = await browser.post('/api/v2/chat-links', {
      platform: 'chatwork',
      fields: { apiToken: 'short', roomId: '1' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: {
        code: 'chat_field_invalid',
        message_key: 'errors.chatwork_token_invalid',
        field: 'apiToken',
        reason: 'chatwork_token_invalid',
      },
    });
  });
});
