import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountService } from '@mimamori/account';
import { createJetStreamBus, type EventBus, namespacedBus } from '@mimamori/bus';
import { accountV1 } from '@mimamori/contracts';
import { type Db, openPostgres } from '@mimamori/db';
import { createGrpcClient, createLogger, createShutdown, type Shutdown, unary } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { createFreshDatabase, type FreshDatabase, testNatsUrl } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../../../scripts/cluster/launch-cluster.ts';
import { type CrawlerProcess, startCrawlerProcess } from '../../crawler/test/crawler-process.ts';
import { type PreviewCrawlers, previewCrawlers } from './clients/preview-crawlers.ts';
import { createGateway, type Gateway } from './gateway.ts';

// Two real crawler processes (each with its own Chromium) behind one gateway, as two crawler
// pods behind a headless Service: a wizard session opened on either is served by it (ADR 0011).
const logger = createLogger({ service: 'gateway-replicas-test', level: 'silent' });
const namespace = `t${randomBytes(4).toString('hex')}`;
const CSRF = 'replicas-test-csrf-token';
let database: FreshDatabase;
let db: Db;
let bus: EventBus;
let shutdown: Shutdown;
let account: accountV1.AccountServiceClient;
const crawlers: CrawlerProcess[] = [];
let preview: PreviewCrawlers;
let gateway: Gateway;
let site: Server;
let siteUrl: string;
let blobFolder: string;

beforeAll(async () => {
  // A click changes the price in that page only: a call served by the wrong session would show it.
  site = createHttpServer((_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        '<!doctype html><html><body><div id="price">¥1,200</div>' +
          `<button id="sale" onclick="document.getElementById('price').textContent = '¥900'">sale</button>` +
          '</body></html>',
      );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const { port } = site.address() as { port: number };
  siteUrl = `http://127.0.0.1:${port}/`;

  database = await createFreshDatabase();
  db = openPostgres(database.url);
  bus = namespacedBus(await createJetStreamBus({ servers: testNatsUrl() }), namespace);
  shutdown = createShutdown({ logger, timeoutMs: 10_000 });
  const accountService = await runService(
    createAccountService({ db, logger, secretBox: createSecretBox(generateSecretKey('test')) }),
    { db, bus, logger, shutdown, grpc: { host: '127.0.0.1', port: 0 } },
  );
  account = createGrpcClient(accountV1.AccountServiceClient, accountService.grpcAddress);

  blobFolder = await mkdtemp(join(tmpdir(), 'crawler-replicas-'));
  const env = {
    DATABASE_URL: database.url,
    NATS_URL: testNatsUrl(),
    BUS_NAMESPACE: namespace,
    BLOB_URL: `file:${blobFolder}`,
    CRAWLER_ALLOW: `127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
  };
  // One after the other: two processes starting at once on a loaded machine both start slowly.
  crawlers.push(await startCrawlerProcess(env));
  crawlers.push(await startCrawlerProcess(env));
  preview = previewCrawlers(`ipv4:${crawlers.map(({ grpcAddress }) => grpcAddress).join(',')}`, {
    deadlineMs: 60_000,
  });
  gateway = await createGateway({ logger, account, preview, isShuttingDown: shutdown.isShuttingDown });
  // Two crawler processes to start, each allowed a minute under load.
}, 180_000);

afterAll(async () => {
  await gateway?.close();
  preview?.close();
  account?.close();
  for (const crawler of crawlers) crawler.child.kill('SIGTERM');
  await Promise.all(crawlers.map(({ exited }) => exited));
  await shutdown?.run('test finished');
  await bus?.close();
  await db?.close();
  await database?.drop();
  site?.close();
  if (blobFolder) await rm(blobFolder, { recursive: true, force: true });
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

function post(path: string, payload: unknown, session: string) {
  return gateway.app.inject({
    method: 'POST',
    url: `/api/preview/${path}`,
    headers: { 'x-csrf-token': CSRF },
    cookies: { csrf_token: CSRF, mimamori_session: session },
    payload: payload as Record<string, unknown>,
  });
}

const priceOf = async (sessionId: string, user: string) =>
  (await post('area', { session_id: sessionId, area: { selector: '#price' } }, user)).json().text;

it('serves every call of a wizard session from the crawler that opened it, with sessions on both crawlers', async () => {
  const sato = await signedIn('sato@example.jp');
  const opened: string[] = [];
  // Opens go round-robin over the crawlers; a third try covers a crawler not connected yet.
  for (let tries = 0; tries < 3 && new Set(opened.map(homeOf)).size < 2; tries += 1) {
    const response = await post('open', { url: siteUrl }, sato);
    expect(response.statusCode).toBe(200);
    opened.push(response.json().session_id);
  }
  const homes = new Set(opened.map(homeOf));
  expect(homes).toEqual(new Set(crawlers.map(({ grpcAddress }) => grpcAddress)));
  const first = opened.find((id) => homeOf(id) === crawlers[0]?.grpcAddress) as string;
  const second = opened.find((id) => homeOf(id) === crawlers[1]?.grpcAddress) as string;

  // Alternating calls, several of each: with a round-robin pick instead of routing, half of
  // them would reach the crawler that does not hold the page and answer preview_not_found.
  const sale = await post(
    'actions',
    { session_id: first, actions: [{ type: 'click', locator: { selector: '#sale' } }] },
    sato,
  );
  expect(sale.json()).toMatchObject({ ok: true });
  for (let round = 0; round < 3; round += 1) {
    expect(await priceOf(first, sato)).toBe('¥900');
    expect(await priceOf(second, sato)).toBe('¥1,200');
    const rendered = await post('render', { session_id: second }, sato);
    expect(rendered.statusCode).toBe(200);
    expect(rendered.json().render.elements).toContainEqual(
      expect.objectContaining({ css: '#price', text: '¥1,200' }),
    );
  }

  // The session stays its user's on its own crawler too.
  const suzuki = await signedIn('suzuki@example.jp');
  const foreign = await post('area', { session_id: first, area: { selector: '#price' } }, suzuki);
  expect(foreign.statusCode).toBe(404);

  for (const sessionId of opened)
    expect((await post('close', { session_id: sessionId }, sato)).json()).toEqual({ status: 'closed' });
  expect((await post('close', { session_id: first }, sato)).statusCode).toBe(404);
});

it('answers a session id naming an address that is not one of its crawlers as unknown, without dialing it', async () => {
  const sato = await signedIn('tanaka@example.jp');
  const elsewhere = createTcpServer();
  let dialed = 0;
  elsewhere.on('connection', (socket) => {
    dialed += 1;
    socket.destroy();
  });
  const port = await freePort();
  await new Promise<void>((resolve) => elsewhere.listen(port, '127.0.0.1', resolve));
  try {
    const forged = await post('render', { session_id: `${crypto.randomUUID()}@127.0.0.1:${port}` }, sato);
    expect(forged.statusCode).toBe(404);
    expect(forged.json().error.code).toBe('preview_not_found');
    expect(dialed).toBe(0);
  } finally {
    await new Promise((resolve) => elsewhere.close(resolve));
  }
});

const homeOf = (sessionId: string) => sessionId.slice(sessionId.lastIndexOf('@') + 1);
