import { IMAGE_LINK_PATH, signImageLink } from '@mimamori/image-links';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceSiteRegistration } from '../../../../system-tests/rig/price-site.ts';
import { ROLES, ROUTE_ACCESS, type Role, roleAllows } from '../../src/http/route-roles.ts';
import type { RouteEntry } from '../../src/http/route-table.ts';
import type { TestBrowser } from '../accounts/test-browser.ts';
import { writeSecurityFigures } from './security-figures.ts';
import {
  type Member,
  PASSWORD,
  rawRequest,
  type SecurityHarness,
  startSecurityHarness,
} from './security-harness.ts';

// Walks the gateway's own route table, so a route added later is checked without a test of its own:
// CSRF under every spelling of its path, another account's ids, a signed-out caller, a deleted
// account, and arbitrary input. Routes open without a session are listed here with the reason.
// The public picture links (/i/…) are walked with the /api routes: the one other route that
// answers anyone with an account's data.
const PUBLIC_BY_DESIGN: Record<string, string> = {
  'POST /api/signup': 'creates an account: there is no session yet',
  'POST /api/signin': 'starts a session',
  'POST /api/signin/code':
    'the second step of a sign-in: the pending sign-in cookie (a password accepted minutes ago) and the code authorise it',
  'POST /api/signin/passkey/options': 'begins a passkey sign-in: there is no session yet',
  'POST /api/signin/passkey':
    'finishes a passkey sign-in: the passkey’s signature over the challenge authorises it',
  'GET /api/signin/x': 'starts the X sign-in: there is no session yet',
  'GET /api/signin/x/callback': 'X sign-in callback: the OAuth state authorises it',
  'POST /api/verify': 'the mailed link token authorises it',
  'POST /api/reset_pass/request': 'a forgotten password: there is no session',
  'POST /api/reset_pass': 'the mailed link token authorises it',
  'GET /api/req_support': 'the mailed support link token authorises it',
  'POST /api/req_support': 'the mailed support link token authorises it',
  'GET /api/signout': 'ends the session the cookie names, if any; nothing to refuse',
  'GET /api/openapi.json': 'the API description, the same for everyone',
  'GET /api/plans': 'the plan catalogue and prices, the same for everyone (the signup page shows them)',
  'GET /api/operator': 'the seller’s legal details, the same for everyone (the law wants them public)',
  'POST /api/stripe/webhook': 'Stripe posts it: the signature over the raw body authorises it',
  'GET /i/:token':
    'a chat platform’s servers fetch an update’s picture: the signed, expiring link authorises it',
};
/** Posted by programs, not browsers: no CSRF token; each checks its caller itself (see csrf.ts). */
const OTHER_SITE_MAY_POST: Record<string, string> = {
  'POST /api/stripe/webhook': 'Stripe’s signature, verified by the account service',
};
/**
 * Taken only with the browser's session: a token that could make, list or revoke tokens, or read
 * the feed URLs, would outlive its own revocation. Every other guarded route takes a bearer token.
 */
const SESSION_ONLY: Record<string, string> = {
  'GET /api/tokens': 'lists the tokens',
  'POST /api/tokens': 'makes a token',
  'POST /api/tokens/revoke': 'revokes a token',
  'GET /api/feeds': 'the secret feed URLs',
  'POST /api/feeds/rotate': 'replaces the feed URLs',
  'POST /api/account/delete': 'deletes the account: the person at the browser, with the password',
  'POST /api/account/export': 'all the account’s data at once',
  'GET /api/audit': 'everyone’s addresses and browsers in the workspace (ADR 0036)',
  'GET /api/audit/csv': 'the same, as a file',
  'GET /api/workspaces': 'a person’s workspaces: a token belongs to one',
  'POST /api/workspaces/switch': 'moves the session to another workspace',
  'GET /api/workspace/members': 'the members’ addresses',
  'POST /api/workspace/invitations': 'invites a person',
  'POST /api/workspace/invitations/revoke': 'revokes an invitation',
  'POST /api/invitations/accept': 'the person at the browser joins',
  'POST /api/workspace/members/role': 'gives a member another role',
  'POST /api/workspace/members/remove': 'removes a member',
  'POST /api/workspace/leave': 'the person at the browser leaves',
  'POST /api/workspace/transfer': 'hands the workspace over',
  'POST /api/workspace/security': 'requires a second factor of every member',
  // Sign-in security: a token must not weaken the sign-in it outlives, or end the owner's sessions.
  'GET /api/security': 'the second factors set',
  'POST /api/security/totp/start': 'sets up TOTP',
  'POST /api/security/totp/confirm': 'turns TOTP on',
  'POST /api/security/totp/disable': 'turns TOTP off',
  'POST /api/security/recovery_codes': 'new recovery codes',
  'POST /api/security/passkeys/options': 'begins registering a passkey',
  'POST /api/security/passkeys': 'registers a passkey',
  'POST /api/security/passkeys/delete': 'removes a passkey',
  'GET /api/security/sessions': 'the sign-in sessions',
  'POST /api/security/sessions/end': 'ends a session',
  'POST /api/security/sessions/end_others': 'ends every other session',
};
/** Answers a deleted account's session with the marker (the SPA then reloads), by design. */
const ANSWERS_DELETED_MARKER = 'GET /api/user_info';

let harness: SecurityHarness;
let alice: Member;
let bob: Member;
let apiRoutes: RouteEntry[];
const aliceIds = {
  targetV2: '',
  targetV1: '',
  mail: '',
  previewSession: '',
  follow: '',
  webhook: '',
  apiToken: '',
  chatLink: '',
  signInSession: '',
};
/** The Japanese company Alice follows (its EDINET code names the item, as the spec's item has no id). */
const ALICE_EDINET = 'E02144';

const key = (route: RouteEntry) => `${route.method} ${route.url}`;
const guarded = () => apiRoutes.filter((route) => !(key(route) in PUBLIC_BY_DESIGN));

beforeAll(async () => {
  harness = await startSecurityHarness();
  apiRoutes = harness.gateway.routes.filter(
    (route) =>
      (route.url.startsWith('/api/') || route.url.startsWith(IMAGE_LINK_PATH)) && route.method !== 'HEAD',
  );
  alice = await harness.member('alice@example.com');
  bob = await harness.member('bob@example.com');

  const registered = await alice.browser.post(
    '/api/v2/target/register',
    priceSiteRegistration('Alice’s shop', `${harness.siteUrl}?alice`),
  );
  expect(registered.status, registered.text).toBe(201);
  aliceIds.targetV2 = String(registered.body.target_v2_id);
  const imported = await alice.browser.post('/api/v1/import', { text: `${harness.siteUrl}?alice-v1\n` });
  expect(imported.status, imported.text).toBe(200);
  aliceIds.targetV1 = String((imported.body.imported as { id: string }[])[0]?.id);
  const mails = await alice.browser.post('/api/account/mails', { email: 'alice-extra@example.com' });
  expect(mails.status, mails.text).toBe(201);
  aliceIds.mail = String((mails.body.mails as { id: string }[])[0]?.id);
  const hook = await alice.browser.post('/api/webhooks', {
    url: harness.siteUrl,
    target_id: aliceIds.targetV2,
  });
  expect(hook.status, hook.text).toBe(201);
  aliceIds.webhook = String((hook.body.webhook as { id: string }).id);
  const chat = await alice.browser.post('/api/v2/chat-links', {
    platform: 'chatwork',
    target_id: aliceIds.targetV2,
    fields: { apiToken: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6', roomId: '1001' },
  });
  expect(chat.status, chat.text).toBe(201);
  aliceIds.chatLink = String((chat.body.link as { id: string }).id);
  const opened = await alice.browser.post('/api/preview/open', { url: harness.siteUrl });
  expect(opened.status, opened.text).toBe(200);
  aliceIds.previewSession = String(opened.body.session_id);
  const followed = await alice.browser.post('/api/cik/register', { cik: '320193' });
  expect(followed.status, followed.text).toBe(200);
  aliceIds.follow = String((followed.body as unknown as { id: string }[])[0]?.id);
  const japanese = await alice.browser.post('/api/tdedi/register', { edinet: ALICE_EDINET });
  expect(japanese.status, japanese.text).toBe(200);
  const token = await alice.browser.post('/api/tokens', {
    name: 'ci',
    scopes: ['read'],
    expires_in_days: 30,
  });
  expect(token.status, token.text).toBe(201);
  aliceIds.apiToken = String((token.body.token as { id: string }).id);
  const sessions = await alice.browser.get('/api/security/sessions');
  expect(sessions.status, sessions.text).toBe(200);
  aliceIds.signInSession = String((sessions.body.sessions as { id: string }[])[0]?.id);
  for (const id of Object.values(aliceIds)) expect(id).toMatch(/^[\w-]{4,}$/);
}, 180_000);

afterAll(async () => {
  await harness?.close();
});

/** Alice's ids under every name a route takes one, v1 or v2 as the route's path says. */
function aliceParams(route: RouteEntry): Record<string, string> {
  // The filings items: Alice's CIK follow by its id, her Japanese one by its EDINET code.
  if (/^\/api\/(tdedi|cik|isin|cikisin)\//.test(route.url))
    return { id: aliceIds.follow, edinet: ALICE_EDINET, user_id: alice.userId };
  const v1 = !route.url.startsWith('/api/v2/') && !route.url.startsWith('/api/preview/');
  const targetId = v1 ? aliceIds.targetV1 : aliceIds.targetV2;
  return {
    // The webhook, token and chat link routes take their own ids; every other route a site's.
    id: route.url.startsWith('/api/webhooks')
      ? aliceIds.webhook
      : route.url.startsWith('/api/tokens')
        ? aliceIds.apiToken
        : route.url.startsWith('/api/v2/chat-links')
          ? aliceIds.chatLink
          : targetId,
    target_id: aliceIds.targetV1,
    target_v2_id: aliceIds.targetV2,
    // The session list names sign-in sessions; the preview routes their own.
    session_id: route.url.startsWith('/api/security/') ? aliceIds.signInSession : aliceIds.previewSession,
    mail_id: aliceIds.mail,
    user_id: alice.userId,
    image: 'registration_page',
  };
}

/** The request a route gets: the ids in the query (GET) or the body (POST), beside a valid site. */
function requestFor(route: RouteEntry, params: Record<string, string>) {
  const query = new URLSearchParams(params).toString();
  if (route.method === 'GET') return { url: `${route.url}?${query}`, body: undefined };
  const site = route.url.includes('/target/') ? priceSiteRegistration('Bob’s shop', harness.siteUrl) : {};
  return { url: route.url, body: { ...site, url: harness.siteUrl, ...params } };
}

async function call(browser: TestBrowser, route: RouteEntry, params: Record<string, string>) {
  const { url, body } = requestFor(route, params);
  return route.method === 'GET' ? browser.get(url) : browser.post(url, body);
}

/** Signs the member in again when a route (sign-out) ended its session. */
async function stillSignedIn(member: Member) {
  if ((await member.browser.get('/api/user_info')).status === 200) return;
  const signIn = await member.browser.post('/api/signin', { email: member.email, password: PASSWORD });
  expect(signIn.status, signIn.text).toBe(200);
}

async function aliceState() {
  return stateOf(alice);
}

/** Everything of a workspace its owner can read, to compare before and after a walk. */
async function stateOf(owner: Member) {
  const [sites, account, info, webhooks, tokens, feeds, chat, quiet, security, sessions] = await Promise.all([
    owner.browser.get('/api/v2/targets'),
    owner.browser.get('/api/account'),
    owner.browser.get('/api/user_info'),
    owner.browser.get('/api/webhooks'),
    owner.browser.get('/api/tokens'),
    owner.browser.get('/api/feeds'),
    owner.browser.get('/api/v2/chat-links'),
    owner.browser.get('/api/v2/quiet-hours'),
    owner.browser.get('/api/security'),
    owner.browser.get('/api/security/sessions'),
  ]);
  return {
    sites: sites.body.targets,
    account: account.body,
    mails: info.body.mails,
    follows: [info.body.tdedinets, info.body.cik_isins],
    webhooks: webhooks.body.webhooks,
    tokens: (tokens.body.tokens as { id: string; name: string }[]).map(({ id, name }) => ({ id, name })),
    feeds: feeds.body,
    chatLinks: chat.body.links,
    quietHours: quiet.body,
    security: security.body,
    sessions: (sessions.body.sessions as { id: string }[]).map(({ id }) => id),
  };
}

describe('the route table', () => {
  it('lists every /api route either as guarded or as public with a reason', () => {
    const known = new Set(apiRoutes.map(key));
    for (const route of Object.keys(PUBLIC_BY_DESIGN))
      expect(known, `${route} is listed but gone`).toContain(route);
    // The walk below covers the rest; a handful would mean the table was not collected.
    expect(guarded().length).toBeGreaterThan(25);
  });
});

describe('the public picture links', () => {
  it('serve a live link to a caller with no session or cookie, and the same 404 to anything else', async () => {
    const blobKey = `updates/${aliceIds.targetV2}/route-table/after.png`;
    await harness.blobs.put(blobKey, Buffer.from('picture-bytes'), { contentType: 'image/png' });
    const claims = { targetId: aliceIds.targetV2, blobKey, expiresAt: Math.floor(Date.now() / 1000) + 60 };
    const fetched = (token: string) => harness.gateway.app.inject({ method: 'GET', url: `/i/${token}` });
    const live = await fetched(signImageLink(harness.imageLinkKey, claims));
    expect([live.statusCode, live.headers['content-type'], live.body]).toEqual([
      200,
      'image/png',
      'picture-bytes',
    ]);
    const refused = [
      await fetched(signImageLink(Buffer.alloc(32, 9), claims)),
      await fetched(signImageLink(harness.imageLinkKey, { ...claims, expiresAt: claims.expiresAt - 120 })),
    ];
    await harness.blobs.delete(blobKey);
    refused.push(await fetched(signImageLink(harness.imageLinkKey, claims)));
    expect(refused.map((answer) => [answer.statusCode, answer.body])).toEqual(
      refused.map(() => [404, refused[0]?.body]),
    );
  });
});

describe('CSRF under every spelling of every state-changing route', () => {
  const spellings = (path: string): string[] => {
    const segments = path.split('/').slice(1);
    const last = segments.length - 1;
    const encodeFirst = (segment: string) =>
      `%${segment.charCodeAt(0).toString(16).padStart(2, '0')}${segment.slice(1)}`;
    return [
      path,
      `/${[encodeFirst(segments[0] ?? ''), ...segments.slice(1)].join('/')}`,
      `/${[encodeFirst(segments[0] ?? '').toUpperCase(), ...segments.slice(1)].join('/')}`,
      `/${[...segments.slice(0, last), encodeFirst(segments[last] ?? '')].join('/')}`,
      `/${segments.join('%2F')}`,
      `/${path}`,
      path.replace('/api/', '/api//'),
      path.toUpperCase(),
      path.replace('/api/', '/Api/'),
      `${path}/`,
      `${path}?`,
      `${path}?x=1`,
      path.replace('/api/', '/api/./'),
      `/x/..${path}`,
      `${path};`,
      `${path}#`,
    ];
  };

  // Every state-changing request needs the token, routed or not, so no spelling even reaches the router's 404.
  it('refuses each spelling without the right token (403) and changes nothing', async () => {
    const mutating = apiRoutes.filter(
      (route) => route.method !== 'GET' && !(key(route) in OTHER_SITE_MAY_POST),
    );
    const cookies = Object.fromEntries(bob.browser.cookies);
    const before = await aliceState();
    let tried = 0;
    let refused = 0;
    const wrong: string[] = [];
    for (const route of mutating) {
      const { body } = requestFor(route, {});
      for (const path of spellings(route.url)) {
        for (const headers of [{}, { 'x-csrf-token': 'not-the-cookie' }] as Record<string, string>[]) {
          tried++;
          const response = await rawRequest(
            harness.url,
            route.method,
            path,
            cookies,
            headers,
            JSON.stringify(body),
          );
          const answer = `${response.status} ${response.body}`;
          if (/^403 .*csrf_failed/.test(answer)) refused++;
          else wrong.push(`${route.method} ${path} → ${answer.slice(0, 120)}`);
        }
      }
    }
    // The check must not refuse everything: the right token lets the first spelling through.
    const withToken = await rawRequest(harness.url, 'POST', '/%61pi/v2/pause', cookies, {
      'x-csrf-token': bob.browser.cookies.get('csrf_token') ?? '',
    });
    expect(withToken.status, withToken.body).toBe(400);

    expect(wrong).toEqual([]);
    expect(refused).toBe(tried);
    expect((await bob.browser.get('/api/v2/targets')).body.targets).toEqual([]);
    expect(await aliceState()).toEqual(before);
    await writeSecurityFigures('csrf-spellings', { routes: mutating.length, tried, refused });
  }, 120_000);
});

describe('routes programs post to', () => {
  it('are the only ones without the CSRF check, and refuse a post they cannot verify', async () => {
    for (const name of Object.keys(OTHER_SITE_MAY_POST)) {
      const [method, path] = name.split(' ') as [string, string];
      expect(apiRoutes.map(key)).toContain(name);
      const response = await rawRequest(
        harness.url,
        method,
        path,
        {},
        { 'content-type': 'application/json' },
        '{}',
      );
      expect(response.status, `${name}: ${response.body}`).toBe(400);
    }
  });
});

describe('isolation: another account’s ids, for every guarded route', () => {
  it('answers Bob with a refusal or with nothing of Alice’s, and leaves Alice’s data as it was', async () => {
    const before = await aliceState();
    const secrets = [alice.userId, alice.email, ...Object.values(aliceIds)];
    const leaks: string[] = [];
    const answers: Record<string, number> = {};
    for (const route of guarded()) {
      const response = await call(bob.browser, route, aliceParams(route));
      answers[key(route)] = response.status;
      const found = secrets.filter((secret) => response.text.includes(secret));
      if (response.status < 300 && found.length > 0)
        leaks.push(`${key(route)} → ${response.status} ${found}`);
      expect(response.status, `${key(route)}: ${response.text.slice(0, 200)}`).toBeLessThan(500);
      await stillSignedIn(bob);
    }
    expect(leaks).toEqual([]);
    expect(await aliceState()).toEqual(before);
    // The same reads with Alice's own session find her data, so the refusals above are about the owner.
    for (const path of ['/api/v2/target', '/api/v2/history', '/api/v2/registration_data']) {
      const route = { method: 'GET', url: path };
      const own = await call(alice.browser, route, aliceParams(route));
      expect(own.status, `${path}: ${own.text.slice(0, 200)}`).toBe(200);
      expect(answers[key(route)], path).toBe(404);
    }
    for (const url of ['/api/webhooks/test', '/api/v2/chat-links/test']) {
      const testRoute = { method: 'POST', url };
      const ownTest = await call(alice.browser, testRoute, aliceParams(testRoute));
      expect(ownTest.status, ownTest.text).toBe(200);
      expect(answers[key(testRoute)], url).toBe(404);
    }
    const ownPreview = await alice.browser.post('/api/preview/render', {
      session_id: aliceIds.previewSession,
    });
    expect(ownPreview.status).toBe(200);
    expect(ownPreview.body).not.toHaveProperty('problem');
    await writeSecurityFigures('isolation', {
      routes: apiRoutes.length,
      guarded: guarded().length,
      publicByDesign: Object.keys(PUBLIC_BY_DESIGN).length,
    });
  }, 180_000);
});

describe('isolation by role: every route × every role, in its own workspace and with another’s ids', () => {
  // Dave's workspace has one member of each role below owner; Dave is its owner.
  let dave: Member;
  const asRole = {} as Record<Role, Member>;
  const daveIds = { targetV2: '', targetV1: '' };
  const leastRole = (route: RouteEntry) => ROUTE_ACCESS[key(route)];

  /** Dave's ids where a route takes one: a refused change must leave Dave's own data as it was. */
  function daveParams(route: RouteEntry): Record<string, string> {
    const v1 = !route.url.startsWith('/api/v2/') && !route.url.startsWith('/api/preview/');
    const targetId = v1 ? daveIds.targetV1 : daveIds.targetV2;
    return {
      id: targetId,
      target_id: daveIds.targetV1,
      target_v2_id: daveIds.targetV2,
      user_id: dave.userId,
    };
  }

  /**
   * Puts the member back in Dave's workspace with their role after a route that may have moved
   * them (leave, a role change): each call of the walk must be made with the role it names.
   */
  async function keepInPlace(role: Role) {
    if (role === 'owner') return;
    const member = asRole[role];
    await harness.testHost.db.query(
      `INSERT INTO account.memberships (workspace_id, person_id, role, created_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (workspace_id, person_id) DO UPDATE SET role = EXCLUDED.role`,
      [dave.userId, member.userId, role],
    );
    await harness.testHost.db.query('UPDATE account.sessions SET workspace_id = $1 WHERE user_id = $2', [
      dave.userId,
      member.userId,
    ]);
  }

  beforeAll(async () => {
    dave = await harness.member('dave@example.com');
    asRole.owner = dave;
    // Basic 25: room for Dave and three members (Basic 5 has three people in all).
    await harness.testHost.db.query('UPDATE account.subscriptions SET plan = 5 WHERE user_id = $1', [
      dave.userId,
    ]);
    // Each member joins by the mailed invitation's link, as a person would.
    for (const role of ['admin', 'editor', 'viewer'] as const) {
      const member = await harness.member(`${role}-of-dave@example.com`);
      const invited = await dave.browser.post('/api/workspace/invitations', { email: member.email, role });
      expect(invited.status, invited.text).toBe(200);
      const accepted = await member.browser.post('/api/invitations/accept', {
        token: await harness.invitationToken(member.email),
      });
      expect(accepted.status, accepted.text).toBe(200);
      expect(accepted.body.workspace).toMatchObject({ id: dave.userId, role, current: true });
      asRole[role] = member;
    }
    const registered = await dave.browser.post(
      '/api/v2/target/register',
      priceSiteRegistration('Dave’s shop', `${harness.siteUrl}?dave`),
    );
    expect(registered.status, registered.text).toBe(201);
    daveIds.targetV2 = String(registered.body.target_v2_id);
    const imported = await dave.browser.post('/api/v1/import', { text: `${harness.siteUrl}?dave-v1\n` });
    daveIds.targetV1 = String((imported.body.imported as { id: string }[])[0]?.id);
    // Each member works in Dave's workspace: its user_info is Dave's.
    for (const role of ROLES) {
      const info = await asRole[role].browser.get('/api/user_info');
      expect([role, info.body.user_id]).toEqual([role, dave.userId]);
    }
  }, 120_000);

  it('declares the least role of every /api route in one place, and nothing that is not a route', () => {
    const undeclared = apiRoutes
      .filter((route) => route.url.startsWith('/api/'))
      .map(key)
      .filter((name) => !(name in ROUTE_ACCESS));
    expect(undeclared, 'declare these in route-roles.ts and walk them here').toEqual([]);
    const routed = new Set(apiRoutes.map(key));
    expect(Object.keys(ROUTE_ACCESS).filter((name) => !routed.has(name))).toEqual([]);
    const publicRoutes = Object.keys(ROUTE_ACCESS).filter((name) => ROUTE_ACCESS[name] === 'public');
    expect(publicRoutes.sort()).toEqual(
      Object.keys(PUBLIC_BY_DESIGN)
        .filter((name) => name.includes(' /api/'))
        .sort(),
    );
  });

  it('refuses each role below a route’s least role (403 role_forbidden) and changes nothing of the workspace', async () => {
    const before = await stateOf(dave);
    const wrong: string[] = [];
    let refused = 0;
    for (const route of guarded()) {
      const least = leastRole(route);
      for (const role of ROLES) {
        if (least === 'person' || least === undefined || least === 'public' || roleAllows(role, least))
          continue;
        const response = await call(asRole[role].browser, route, daveParams(route));
        await keepInPlace(role);
        if (response.status === 403 && response.text.includes('role_forbidden')) refused++;
        else wrong.push(`${role} ${key(route)} → ${response.status} ${response.text.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(refused).toBeGreaterThan(60);
    expect(await stateOf(dave)).toEqual(before);
    await writeSecurityFigures('role-refusals', { routes: guarded().length, refused });
  }, 180_000);

  it('lets each role at or above the least role past the guard, and with another workspace’s ids finds nothing of it', async () => {
    const before = await aliceState();
    const secrets = [alice.userId, alice.email, ...Object.values(aliceIds)];
    const wrong: string[] = [];
    let walked = 0;
    for (const route of guarded()) {
      const least = leastRole(route);
      for (const role of ROLES) {
        if (least !== 'person' && least !== 'viewer' && least !== undefined && least !== 'public') {
          if (!roleAllows(role, least)) continue;
        }
        walked++;
        const response = await call(asRole[role].browser, route, aliceParams(route));
        await keepInPlace(role);
        const leaked = secrets.filter((secret) => response.text.includes(secret));
        if (
          response.status === 401 ||
          response.status >= 500 ||
          /role_forbidden|route_undeclared/.test(response.text) ||
          (response.status < 300 && leaked.length > 0)
        )
          wrong.push(`${role} ${key(route)} → ${response.status} ${leaked} ${response.text.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(walked).toBeGreaterThan(guarded().length);
    expect(await aliceState()).toEqual(before);
    // Still in Dave's workspace after the walk: no route moved a member out of it.
    for (const role of ROLES) {
      expect((await asRole[role].browser.get('/api/user_info')).body.user_id).toBe(dave.userId);
    }
  }, 240_000);

  it('gives an editor’s change to the workspace, and a viewer’s own password stays theirs', async () => {
    const made = await asRole.editor.browser.post(
      '/api/v2/target/register',
      priceSiteRegistration('Edited by the editor', `${harness.siteUrl}?editor`),
    );
    expect(made.status, made.text).toBe(201);
    const sites = await dave.browser.get('/api/v2/targets');
    expect(JSON.stringify(sites.body.targets)).toContain(String(made.body.target_v2_id));
    expect((await asRole.editor.browser.get('/api/tokens')).status).toBe(403);
    const viewer = asRole.viewer;
    const changed = await viewer.browser.post('/api/account/password', {
      current_password: PASSWORD,
      new_password: 'efgh5678',
    });
    expect(changed.status, changed.text).toBe(200);
    // Dave still signs in with his own password; the viewer with the new one.
    const daveAgain = await harness.memberBrowser();
    expect((await daveAgain.post('/api/signin', { email: dave.email, password: PASSWORD })).status).toBe(200);
    const viewerAgain = await harness.memberBrowser();
    expect(
      (await viewerAgain.post('/api/signin', { email: viewer.email, password: 'efgh5678' })).status,
    ).toBe(200);
  }, 60_000);
});

/** A request as a program sends it: the bearer token, no CSRF header, cookies only when given. */
async function withBearer(
  route: RouteEntry,
  token: string,
  params: Record<string, string>,
  cookies: Record<string, string> = {},
) {
  const { url, body } = requestFor(route, params);
  const response = await harness.gateway.app.inject({
    method: route.method as 'GET' | 'POST',
    url,
    cookies,
    headers: { authorization: `Bearer ${token}` },
    ...(route.method === 'GET' ? {} : { payload: body }),
  });
  return { status: response.statusCode, text: response.body };
}

describe('API tokens on every guarded route', () => {
  const reads = (route: RouteEntry) => route.method === 'GET';
  let carol: Member;
  const tokens = { read: '', write: '', both: '', revoked: '', expired: '' };

  beforeAll(async () => {
    carol = await harness.member('carol@example.com');
    const make = async (name: string, scopes: string[]) => {
      const made = await carol.browser.post('/api/tokens', { name, scopes, expires_in_days: 7 });
      expect(made.status, made.text).toBe(201);
      return { id: String((made.body.token as { id: string }).id), secret: String(made.body.secret) };
    };
    tokens.read = (await make('reader', ['read'])).secret;
    tokens.write = (await make('writer', ['write'])).secret;
    tokens.both = (await make('walker', ['read', 'write'])).secret;
    const revoked = await make('revoked', ['read', 'write']);
    tokens.revoked = revoked.secret;
    const revoke = await carol.browser.post('/api/tokens/revoke', { id: revoked.id });
    expect(revoke.status, revoke.text).toBe(200);
    // Expired as if the clock had passed its 7 days: the account service compares with its clock.
    const expired = await make('expired', ['read', 'write']);
    tokens.expired = expired.secret;
    await harness.testHost.db.query(
      `UPDATE account.api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [expired.id],
    );
  }, 60_000);

  it('declares in OpenAPI that every guarded route takes the session or a bearer token', async () => {
    const document = (
      await harness.gateway.app.inject({ method: 'GET', url: '/api/openapi.json' })
    ).json() as {
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
    };
    const undeclared = guarded().filter((route) => {
      const security = document.paths[route.url]?.[route.method.toLowerCase()]?.security ?? [];
      const scope = route.method === 'GET' ? 'read' : 'write';
      return (
        !security.some((scheme) => scheme.bearer?.includes(scope)) ||
        !security.some((scheme) => 'session' in scheme)
      );
    });
    expect(undeclared.map(key)).toEqual([]);
  });

  it('lists every session-only route: token management, closing, export and sign-in security', () => {
    const known = new Set(apiRoutes.map(key));
    for (const route of Object.keys(SESSION_ONLY))
      expect(known, `${route} is listed but gone`).toContain(route);
  });

  it('lets the token act for its account with no CSRF header; session-only routes answer 403 session_required', async () => {
    const wrong: string[] = [];
    for (const route of guarded()) {
      const response = await withBearer(route, tokens.both, { user_id: carol.userId });
      const answer = `${response.status} ${response.text.slice(0, 160)}`;
      if (key(route) in SESSION_ONLY) {
        if (!/^403 .*session_required/.test(answer)) wrong.push(`${key(route)} → ${answer}`);
      } else if (response.status === 401 || response.status === 403 || response.status >= 500) {
        wrong.push(`${key(route)} → ${answer}`);
      }
    }
    expect(wrong).toEqual([]);
    // Acting for Carol: her sites list answers hers, and a token she made reads her account.
    const sites = await withBearer({ method: 'GET', url: '/api/user_info' }, tokens.read, {});
    expect(JSON.parse(sites.text)).toMatchObject({ user_id: carol.userId });
  }, 180_000);

  it('refuses a token without the scope the method needs (403 insufficient_scope)', async () => {
    const wrong: string[] = [];
    for (const route of guarded()) {
      if (key(route) in SESSION_ONLY) continue;
      const response = await withBearer(route, reads(route) ? tokens.write : tokens.read, {});
      if (!(response.status === 403 && response.text.includes('insufficient_scope')))
        wrong.push(`${key(route)} → ${response.status} ${response.text.slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('refuses a revoked, an expired or a made-up token on every guarded route (401), whatever cookie comes with it', async () => {
    const cookies = Object.fromEntries(carol.browser.cookies);
    const wrong: string[] = [];
    for (const route of guarded()) {
      for (const token of [tokens.revoked, tokens.expired, 'mmr_not-a-token', 'garbage']) {
        const response = await withBearer(route, token, {}, cookies);
        if (!(response.status === 401 && response.text.includes('unauthenticated')))
          wrong.push(
            `${key(route)} ${token.slice(0, 8)} → ${response.status} ${response.text.slice(0, 120)}`,
          );
      }
    }
    expect(wrong).toEqual([]);
    // The cookie alone still works: the refusals above were the tokens'.
    expect((await carol.browser.get('/api/user_info')).status).toBe(200);
  }, 180_000);

  it('takes a token only from the Authorization header: a session cookie holding one is ignored', async () => {
    const response = await harness.gateway.app.inject({
      method: 'GET',
      url: '/api/user_info',
      cookies: { mimamori_session: tokens.both },
    });
    expect(response.statusCode).toBe(401);
  });

  it('notes when a token was last used, and slows a token sent too fast (429 with Retry-After)', async () => {
    const listed = await carol.browser.get('/api/tokens');
    const used = (listed.body.tokens as { name: string; last_used_at: string | null }[]).find(
      (token) => token.name === 'reader',
    );
    expect(used?.last_used_at).toEqual(expect.any(String));
    const hasty = await carol.browser.post('/api/tokens', {
      name: 'hasty',
      scopes: ['read'],
      expires_in_days: 1,
    });
    const secret = String(hasty.body.secret);
    const statuses: number[] = [];
    let retryAfter: unknown;
    for (let sent = 0; sent < 200 && !statuses.includes(429); sent++) {
      const response = await harness.gateway.app.inject({
        method: 'GET',
        url: '/api/user_info',
        headers: { authorization: `Bearer ${secret}` },
      });
      statuses.push(response.statusCode);
      retryAfter = response.headers['retry-after'];
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(100);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  }, 60_000);
});

describe('arbitrary input on every route', () => {
  const FIELDS = [
    'id',
    'target_id',
    'target_v2_id',
    'session_id',
    'code',
    'recovery_code',
    'passkey_id',
    'challenge_token',
    'response',
    'mail_id',
    'user_id',
    'url',
    'email',
    'password',
    'current_password',
    'new_password',
    'token',
    'lang',
    'timezone',
    'name',
    'currency',
    'plan',
    'agree',
    'notes',
    'type',
    'webhook_url',
    'text',
    'format',
    'image',
    'update',
    'area',
    'day',
    'filter',
    'cursor',
    'direction',
    'size',
    'actions',
    'areas',
    'rules',
    'options',
    'frame',
    'verify',
    'interval_minutes',
    'user_agent',
    'viewport',
    'cookies',
    'fetch_mode',
    'label',
  ];
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.string({ maxLength: 40 }),
    fc.constantFrom(
      '',
      '0',
      '-1',
      'css',
      'xpath',
      'before',
      'registration_page',
      '2026-02-30',
      'http://[::1]/',
    ),
  );
  const body = fc.oneof(
    fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 8 }),
    fc.jsonValue({ maxDepth: 2 }),
  );
  const query = fc.dictionary(fc.constantFrom(...FIELDS), fc.string({ maxLength: 30 }), { maxKeys: 6 });

  it('never makes a handler throw or answer 500', async () => {
    const fuzzer = await harness.member('fuzz@example.com');
    const runs = 20;
    let requests = 0;
    for (const route of apiRoutes) {
      await fc.assert(
        fc.asyncProperty(route.method === 'GET' ? query : body, async (input) => {
          requests++;
          const response = await fuzzer.browser.request(
            route.method as 'GET' | 'POST',
            route.method === 'GET'
              ? `${route.url}?${new URLSearchParams(input as Record<string, string>)}`
              : route.url,
            route.method === 'GET' ? undefined : (input as Record<string, unknown>),
          );
          return response.status < 500;
        }),
        { numRuns: runs, seed: 19 },
      );
      await stillSignedIn(fuzzer);
    }
    await writeSecurityFigures('input-fuzz', { routes: apiRoutes.length, requests, serverErrors: 0 });
  }, 600_000);
});

describe('a caller without a live account', () => {
  it('refuses a signed-out caller on every guarded route (401)', async () => {
    const stranger = await harness.member('stranger@example.com');
    await stranger.browser.get('/api/signout');
    for (const route of guarded()) {
      const response = await call(stranger.browser, route, aliceParams(route));
      expect(response.status, `${key(route)}: ${response.text.slice(0, 200)}`).toBe(401);
    }
  }, 120_000);

  it('refuses a deleted account’s session on every guarded route; user_info says it is deleted', async () => {
    const gone = await harness.member('gone@example.com');
    await harness.testHost.db.query('UPDATE account.users SET deleted_at = now() WHERE id = $1', [
      gone.userId,
    ]);
    for (const route of guarded()) {
      const response = await call(gone.browser, route, aliceParams(route));
      if (key(route) === ANSWERS_DELETED_MARKER) {
        expect(response.body).toMatchObject({ deleted_user: true });
        continue;
      }
      expect(response.status, `${key(route)}: ${response.text.slice(0, 200)}`).toBe(401);
    }
  }, 120_000);
});
