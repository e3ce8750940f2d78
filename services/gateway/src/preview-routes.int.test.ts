import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountService } from '@mimamori/account';
import { createFileBlobStore } from '@mimamori/blob-store';
import { createJetStreamBus, type EventBus, namespacedBus } from '@mimamori/bus';
import { accountV1 } from '@mimamori/contracts';
import { createCrawlerService } from '@mimamori/crawler';
import { type Db, openPostgres } from '@mimamori/db';
import { createGrpcClient, createLogger, createShutdown, type Shutdown, unary } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { createFreshDatabase, type FreshDatabase, testNatsUrl } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEveryApiRouteDescribed } from '../test/openapi-coverage.ts';
import { type PreviewCrawlers, previewCrawlers } from './clients/preview-crawlers.ts';
import { createGateway, type Gateway } from './gateway.ts';

const logger = createLogger({ service: 'gateway-preview-test', level: 'silent' });
let database: FreshDatabase;
let db: Db;
let bus: EventBus;
let shutdown: Shutdown;
let account: accountV1.AccountServiceClient;
let preview: PreviewCrawlers;
let gateway: Gateway;
let site: Server;
let siteUrl: string;
let blobDir: string;

const CSRF = 'preview-test-csrf-token';
// The SECRET_KEYS the gateway seals a login's texts with and the crawler opens them with.
const crawlerSecrets = createSecretBox(generateSecretKey('test'));

beforeAll(async () => {
  site = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    if (request.url === '/login') {
      // A login only the right password passes: it sets the member cookie.
      response.end(
        '<!doctype html><html><body><input id="pass" type="password"><button id="submit" onclick="' +
          "if (document.getElementById('pass').value === 's3cret!') document.cookie = 'member=yes; path=/'" +
          '">sign in</button></body></html>',
      );
      return;
    }
    response.end(
      '<!doctype html><html><head><title>\n  Shop  front </title></head>' +
        '<body><h1>Shop</h1><div id="price">¥1,200</div></body></html>',
    );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const { port } = site.address() as { port: number };
  siteUrl = `http://127.0.0.1:${port}/`;

  database = await createFreshDatabase();
  db = openPostgres(database.url);
  bus = namespacedBus(
    await createJetStreamBus({ servers: testNatsUrl() }),
    `t${randomBytes(4).toString('hex')}`,
  );
  shutdown = createShutdown({ logger, timeoutMs: 10_000 });
  const host = { db, bus, logger, shutdown, grpc: { host: '127.0.0.1', port: 0 } };
  const accountService = await runService(
    createAccountService({ db, logger, secretBox: createSecretBox(generateSecretKey('test')) }),
    host,
  );
  blobDir = await mkdtemp(join(tmpdir(), 'mimamori-blobs-'));
  const crawlerService = await runService(
    createCrawlerService({
      bus,
      logger,
      blobs: await createFileBlobStore(blobDir),
      allow: [`127.0.0.1:${port}`],
      secrets: crawlerSecrets,
    }),
    host,
  );
  account = createGrpcClient(accountV1.AccountServiceClient, accountService.grpcAddress);
  preview = previewCrawlers(crawlerService.grpcAddress, { deadlineMs: 60_000 });
  gateway = await createGateway({
    logger,
    account,
    preview,
    secretBox: crawlerSecrets,
    isShuttingDown: shutdown.isShuttingDown,
  });
});

afterAll(async () => {
  await gateway?.close();
  account?.close();
  preview?.close();
  await shutdown?.run('test finished');
  await bus?.close();
  await db?.close();
  await database?.drop();
  site?.close();
  if (blobDir) await rm(blobDir, { recursive: true, force: true });
});

async function signedIn(email: string): Promise<string> {
  const { userId } = await unary(account, 'createAccount', { email, password: 'abcd1234', lang: 'ja' });
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO account.sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')`,
    [createHash('sha256').update(token).digest('base64url'), userId],
  );
  return token;
}

function post(path: string, payload: unknown, session?: string) {
  return gateway.app.inject({
    method: 'POST',
    url: `/api/preview/${path}`,
    headers: { 'x-csrf-token': CSRF },
    cookies: { csrf_token: CSRF, ...(session ? { mimamori_session: session } : {}) },
    payload: payload as Record<string, unknown>,
  });
}

describe('gateway preview routes', () => {
  it('answers 401 when signed out or the session is unknown, and 403 without the CSRF token', async () => {
    expect((await post('open', { url: siteUrl })).statusCode).toBe(401);
    const unknown = await post('open', { url: siteUrl }, 'not-a-session');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({
      error: { code: 'unauthenticated', message_key: 'errors.unauthenticated' },
    });
    const noCsrf = await gateway.app.inject({
      method: 'POST',
      url: '/api/preview/open',
      payload: { url: siteUrl },
    });
    expect(noCsrf.statusCode).toBe(403);
  });

  it('opens a page for the signed-in user, evaluates an area, and keeps the session from another user', async () => {
    const sato = await signedIn('sato@example.jp');
    const suzuki = await signedIn('suzuki@example.jp');

    const opened = await post('open', { url: siteUrl, user_agent: { kind: 'iphone' } }, sato);
    expect(opened.statusCode).toBe(200);
    const { session_id: sessionId, render } = opened.json();
    expect(render.screenshot).toMatch(/^data:image\/webp;base64,/);
    expect(render.image_width).toBe(390);
    // The wizard names a new site after the page's title, its whitespace collapsed.
    expect(render.title).toBe('Shop front');
    expect(render.elements).toContainEqual(
      expect.objectContaining({ css: '#price', xpath: '//*[@id="price"]', text: '¥1,200' }),
    );

    const area = await post('area', { session_id: sessionId, area: { selector: '#price' } }, sato);
    expect(area.json()).toMatchObject({ found: true, text: '¥1,200', http_suffices: true });
    expect(area.json()).not.toHaveProperty('normalised_text');
    // With the area's options the answer carries the text checks will compare, or the refused option.
    const normalised = await post(
      'area',
      {
        session_id: sessionId,
        area: { selector: 'body' },
        options: { excludeNumbers: true, excludeWords: ['Shop'] },
      },
      sato,
    );
    expect(normalised.json()).toMatchObject({ found: true, normalised_text: '¥' });
    const withTags = await post(
      'area',
      { session_id: sessionId, area: { selector: '#price' }, options: { stripTags: false } },
      sato,
    );
    expect(withTags.json().normalised_text).toContain('<div id="price">');
    const refused = await post(
      'area',
      { session_id: sessionId, area: { selector: '#price' }, options: { excludeRegexes: ['(?<=a)b'] } },
      sato,
    );
    expect(refused.json()).toMatchObject({ options_problem: { path: 'excludeRegexes[0]' } });

    const foreign = await post('area', { session_id: sessionId, area: { selector: '#price' } }, suzuki);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('preview_not_found');

    expect((await post('close', { session_id: sessionId }, sato)).json()).toEqual({ status: 'closed' });
    expect((await post('close', { session_id: sessionId }, sato)).statusCode).toBe(404);
  });

  it('sends a login password to the crawler sealed, so only the crawler holding the keys can type it', async () => {
    const sato = await signedIn('kato@example.jp');
    const login = {
      actions: [
        { type: 'enter_text', locator: { selector: '#pass' }, value: 's3cret!' },
        { type: 'click', locator: { selector: '#submit' } },
      ],
      verify: { kind: 'cookie', cookie_name: 'member' },
    };
    const opened = (await post('open', { url: `${siteUrl}login` }, sato)).json();
    const signedInPage = await post('login', { session_id: opened.session_id, ...login }, sato);
    expect(signedInPage.json()).toMatchObject({ ok: true });

    // A gateway sealing with other keys: the crawler cannot open the password, so it never
    // arrived as typed.
    const otherKeys = await createGateway({
      logger,
      account,
      preview,
      secretBox: createSecretBox(generateSecretKey('other')),
      isShuttingDown: shutdown.isShuttingDown,
    });
    try {
      const refused = await otherKeys.app.inject({
        method: 'POST',
        url: '/api/preview/login',
        headers: { 'x-csrf-token': CSRF },
        cookies: { csrf_token: CSRF, mimamori_session: sato },
        payload: { session_id: opened.session_id, ...login },
      });
      expect(refused.statusCode).toBe(400);
    } finally {
      await otherKeys.close();
    }
    await post('close', { session_id: opened.session_id }, sato);
  });

  it('refuses bad bodies and a non-http URL with 400', async () => {
    const sato = await signedIn('tanaka@example.jp');
    expect((await post('area', { session_id: 'x' }, sato)).statusCode).toBe(400);
    const fileUrl = await post('open', { url: 'file:///etc/passwd' }, sato);
    expect(fileUrl.statusCode).toBe(400);
    expect(fileUrl.json().error.code).toBe('invalid_url');
  });

  it('describes the preview routes in the OpenAPI document', async () => {
    const document = await expectEveryApiRouteDescribed(gateway.app);
    for (const path of ['open', 'render', 'area', 'login', 'actions', 'close']) {
      expect(document.paths[`/api/preview/${path}`]?.post).toBeDefined();
    }
  });
});
