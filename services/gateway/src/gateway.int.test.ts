import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountService } from '@mimamori/account';
import { accountV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { createGrpcClient, unary } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { startTestServiceHost, type TestServiceHost } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEveryApiRouteDescribed } from '../test/openapi-coverage.ts';
import { createGateway, type Gateway } from './gateway.ts';

let testHost: TestServiceHost;
let db: Db;
let account: accountV1.AccountServiceClient;
let gateway: Gateway;
let webDist: string;

beforeAll(async () => {
  testHost = await startTestServiceHost('gateway-test');
  db = testHost.db;
  const running = await runService(
    createAccountService({
      db,
      logger: testHost.logger,
      secretBox: createSecretBox(generateSecretKey('test')),
    }),
    testHost.host,
  );
  account = createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress);
  webDist = await mkdtemp(join(tmpdir(), 'mimamori-web-'));
  await mkdir(join(webDist, 'assets'));
  await writeFile(
    join(webDist, 'index.html'),
    '<!doctype html><html><head><title>Mimamori</title></head><body><div id="root"></div></body></html>',
  );
  await writeFile(join(webDist, 'assets', 'app.js'), 'console.log("app")');
  gateway = await createGateway({
    logger: testHost.logger,
    account,
    webDistDir: webDist,
    isShuttingDown: testHost.shutdown.isShuttingDown,
  });
});

afterAll(async () => {
  await gateway?.close();
  account?.close();
  await testHost?.close();
  if (webDist) await rm(webDist, { recursive: true, force: true });
});

describe('gateway', () => {
  it('answers /healthz', async () => {
    const response = await gateway.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
  });

  it('answers user_info with 401 and a stable error code when signed out or the session is unknown', async () => {
    for (const cookies of [{}, { mimamori_session: 'not-a-session' }] as Record<string, string>[]) {
      const response = await gateway.app.inject({ method: 'GET', url: '/api/user_info', cookies });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: { code: 'unauthenticated', message_key: 'errors.unauthenticated' },
      });
    }
    // An unknown session's cookies are dropped, so the next page load does not ask again.
    const stale = await gateway.app.inject({
      method: 'GET',
      url: '/api/user_info',
      cookies: { mimamori_session: 'not-a-session', mimamori_signed_in: '1' },
    });
    const cleared = stale.cookies.filter((cookie) => cookie.value === '').map((cookie) => cookie.name);
    expect(cleared.sort()).toEqual(['mimamori_session', 'mimamori_signed_in']);
  });

  it('answers user_info in the shape the SPA reads for a live session, read from PostgreSQL through account', async () => {
    const { userId } = await unary(account, 'createAccount', {
      email: 'sato@example.jp',
      password: 'abcd1234',
      lang: 'ja',
    });
    const token = randomBytes(32).toString('base64url');
    await db.query(
      `INSERT INTO account.sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 hour')`,
      [createHash('sha256').update(token).digest('base64url'), userId],
    );
    const response = await gateway.app.inject({
      method: 'GET',
      url: '/api/user_info',
      cookies: { mimamori_session: token },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      user_id: userId,
      mails: ['sato@example.jp'],
      // The trial covers Basic 5 (plan 3) until a card is registered.
      num: { _60min: 0, _10min: 5, _1min: 0, random_ip: 0, ss: 5, mail: 3, line_notify: 5 },
      used_num: { _60min: 0, _10min: 0, _1min: 0, random_ip: 0, ss: 0, mail: 0, line_notify: 0 },
      subscription: { price: 0, status: 1, s_info: { Plan: 3, Cycle: 'month', Options: [] } },
      has_pi: false,
      tdedinets: [],
      cik_isins: [],
      locale: { Lang: 'ja', Currency: 'JPY' },
      line_url: '/account',
      line_need_setting: true,
    });
    expect(response.json()).not.toHaveProperty('deleted_user');
  });

  it('refuses a state-changing call without the CSRF token, and lets it through with it', async () => {
    const first = await gateway.app.inject({ method: 'GET', url: '/healthz' });
    const csrf = first.cookies.find((cookie) => cookie.name === 'csrf_token');
    expect(csrf).toMatchObject({ sameSite: 'Strict', secure: true });
    expect(csrf?.httpOnly).toBeFalsy();

    const refused = await gateway.app.inject({
      method: 'POST',
      url: '/api/v2/pause',
      cookies: { csrf_token: csrf?.value ?? '' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: { code: 'csrf_failed', message_key: 'errors.csrf_failed' } });

    const wrong = await gateway.app.inject({
      method: 'POST',
      url: '/api/v2/pause',
      cookies: { csrf_token: csrf?.value ?? '' },
      headers: { 'x-csrf-token': 'something-else' },
    });
    expect(wrong.statusCode).toBe(403);

    const allowed = await gateway.app.inject({
      method: 'POST',
      url: '/api/v2/pause',
      cookies: { csrf_token: csrf?.value ?? '' },
      headers: { 'x-csrf-token': csrf?.value ?? '' },
    });
    expect(allowed.statusCode).toBe(404);
    expect(allowed.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('serves the SPA for history-mode routes and 404s unknown assets and API paths', async () => {
    for (const url of ['/', '/target2?id=42', '/sr2c']) {
      const response = await gateway.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<div id="root">');
      // The demo shop changes its prices each of the product's minutes, a real one here.
      expect(response.body).toContain('<meta name="mimamori-minute-ms" content="60000"></head>');
    }
    expect((await gateway.app.inject({ method: 'GET', url: '/assets/app.js' })).body).toContain(
      'console.log',
    );
    expect((await gateway.app.inject({ method: 'GET', url: '/assets/missing-chunk.js' })).statusCode).toBe(
      404,
    );
    expect((await gateway.app.inject({ method: 'GET', url: '/api/nothing-here' })).statusCode).toBe(404);
  });

  it('writes the scaled minute into the page where tests pass the product’s time faster', async () => {
    const scaled = await createGateway({
      logger: testHost.logger,
      account,
      webDistDir: webDist,
      timeScale: 30,
      isShuttingDown: testHost.shutdown.isShuttingDown,
    });
    try {
      const response = await scaled.app.inject({ method: 'GET', url: '/mock/ec' });
      expect(response.body).toContain('<meta name="mimamori-minute-ms" content="2000">');
    } finally {
      await scaled.close();
    }
  });

  it('answers the places people look for a feed with 404, not the SPA: a feed needs the account’s token', async () => {
    for (const url of ['/rss', '/feed', '/feeds', '/atom.xml', '/rss.xml', '/feeds/made-up-token/atom.xml']) {
      const response = await gateway.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('<div id="root">');
      expect(response.json(), url).toMatchObject({ error: { code: 'feed_not_found' } });
    }
  });

  it('gives a page load with a session cookie but no signed-in hint the hint, and no one else', async () => {
    const hint = (response: { cookies: { name: string; value: string; httpOnly?: boolean }[] }) =>
      response.cookies.find((cookie) => cookie.name === 'mimamori_signed_in');
    const held = await gateway.app.inject({ method: 'GET', url: '/', cookies: { mimamori_session: 'x' } });
    expect(hint(held)).toMatchObject({ value: '1' });
    expect(hint(held)?.httpOnly).toBeFalsy();
    const already = await gateway.app.inject({
      method: 'GET',
      url: '/sr2c',
      cookies: { mimamori_session: 'x', mimamori_signed_in: '1' },
    });
    expect(hint(already)).toBeUndefined();
    expect(hint(await gateway.app.inject({ method: 'GET', url: '/' }))).toBeUndefined();
  });

  it('describes every API route it serves, with the schema of its answers, and serves every path it describes', async () => {
    await expectEveryApiRouteDescribed(gateway.app);
  });

  it('describes its API in OpenAPI, its error answers naming their codes', async () => {
    const document = (await gateway.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(document).toMatchObject({
      openapi: '3.1.0',
      paths: {
        '/api/user_info': { get: {} },
        '/api/signup': { post: {} },
        '/api/signin': { post: {} },
        '/api/signout': { get: {} },
        '/api/account/update': { post: {} },
        '/static/timezones.json': { get: {} },
      },
    });
    expect(document.paths['/api/signin'].post.responses['401'].description).toBe(
      'E-mail or password do not match: credentials_mismatch',
    );
  });

  it('declares the session cookie with its CSRF header and the bearer token on every signed-in route', async () => {
    const document = (await gateway.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['bearer', 'csrf', 'session']);
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.securitySchemes.csrf).toMatchObject({ in: 'header', name: 'X-CSRF-Token' });
    expect(document.paths['/api/account'].get.security).toEqual([{ session: [] }, { bearer: ['read'] }]);
    expect(document.paths['/api/account/update'].post.security).toEqual([
      { session: [], csrf: [] },
      { bearer: ['write'] },
    ]);
    // Every route that takes the session takes a token too.
    for (const [path, operations] of Object.entries(document.paths) as [
      string,
      Record<string, { security?: object[] }>,
    ][])
      for (const [method, operation] of Object.entries(operations)) {
        const schemes = (operation.security ?? []).flatMap((scheme) => Object.keys(scheme));
        if (schemes.includes('session')) expect(schemes, `${method} ${path}`).toContain('bearer');
      }
  });
});
