import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBrowserPageFetcher } from '../src/browser/browser-page-fetcher.ts';
import { createBrowserPool } from '../src/browser/browser-pool.ts';
import type { FetchRequest, LoginSettings, PageFetcher } from '../src/domain/page-fetcher.ts';
import { type FixtureSite, serveFixtureSite } from './fixture-site.ts';

/**
 * A members-only page behind a login form, holding its sessions on the server the way real
 * sites do: a session can lapse there while its cookie stays in the browser. How the members
 * page answers a lapsed session is the test's choice: a redirect to the login page, the form in
 * place of the page, a 401, or a page that merely lacks the members' content.
 */
type SignedOutAnswer = 'redirect' | 'form' | 'status' | 'silent';

let site: FixtureSite;
let fetcher: PageFetcher;
const sessions = new Set<string>();
let logins = 0;
let signedOut: SignedOutAnswer = 'redirect';

const html = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"></head><body>${body}</body></html>`;
const FORM =
  '<form method="post" action="/do-login"><input id="user" name="user"><input id="pass" name="pass" type="password"><button id="submit" type="submit">Sign in</button></form>';

function route(path: string, request: IncomingMessage, response: ServerResponse) {
  const send = (body: string, status = 200) =>
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(html(body));
  if (path === '/login') return send(FORM);
  if (path === '/do-login') {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      const form = new URLSearchParams(body);
      if (form.get('user') !== 'sato' || form.get('pass') !== 's3cret!') {
        response.writeHead(303, { location: '/login' }).end();
        return;
      }
      logins++;
      const sid = randomUUID();
      sessions.add(sid);
      response
        .writeHead(303, { location: '/members', 'set-cookie': `sid=${sid}; Path=/; HttpOnly; Max-Age=86400` })
        .end();
    });
    return;
  }
  if (path === '/members') {
    const sid = /(?:^|;\s*)sid=([^;]+)/.exec(request.headers.cookie ?? '')?.[1];
    if (sid && sessions.has(sid)) return send('<div id="secret">members only: 会員価格 980円</div>');
    if (signedOut === 'redirect') return void response.writeHead(302, { location: '/login' }).end();
    if (signedOut === 'form') return send(FORM);
    if (signedOut === 'status') return send('<p>please sign in</p>', 401);
    return send('<p>welcome, guest</p>');
  }
  send('not found', 404);
}

const typed = (selector: string, value: string) => ({
  type: 'enter_text' as const,
  locator: { selector, selectorType: 'css' as const },
  value,
  skippable: false,
});
const fields = [
  typed('#user', 'sato'),
  typed('#pass', 's3cret!'),
  {
    type: 'click' as const,
    locator: { selector: '#submit', selectorType: 'css' as const },
    skippable: false,
  },
];

/** Logins that start on the site's login page, known to work by replaying them. */
const replayLogin = (): LoginSettings => ({
  verify: { kind: 'replay' },
  actions: [{ type: 'goto_url', value: `${site.origin}/login`, skippable: false }, ...fields],
});
/** Logins typed into the form the members page itself shows, known to work by their cookie. */
const cookieLogin: LoginSettings = { verify: { kind: 'cookie', name: 'sid' }, actions: fields };

function request(login: LoginSettings, sessionState: string | undefined): FetchRequest {
  return {
    url: `${site.origin}/members`,
    mode: 'browser',
    userAgent: { kind: 'chrome' },
    login,
    ...(sessionState ? { sessionState } : {}),
    actions: [],
    areas: [{ areaId: 'secret', selector: '#secret', selectorType: 'css' }],
    screenshot: 'none',
    // Checks with a login never share a warm context: the kept session is all that carries over.
    accountId: 'u1',
  };
}

/** Runs `count` checks in a row, each given the session the one before kept, as the scheduler does. */
async function checksInARow(count: number, login: LoginSettings, session?: string): Promise<string> {
  let kept = session;
  for (let index = 0; index < count; index++) {
    const result = await fetcher.fetch(request(login, kept), new AbortController().signal);
    if (!result.ok) throw new Error(`check ${index + 1} failed: ${result.code}: ${result.detail}`);
    expect(result.areas[0]?.text).toBe('members only: 会員価格 980円');
    expect(result.sessionState).toBeTruthy();
    kept = result.sessionState;
  }
  return kept as string;
}

beforeAll(async () => {
  site = await serveFixtureSite(route);
  fetcher = createBrowserPageFetcher({
    pool: createBrowserPool({ allow: [site.authority], pagesPerBrowser: 2 }),
    limits: { loadTimeoutMs: 10_000, settleTimeoutMs: 4_000, actionTimeoutMs: 5_000 },
  });
});

afterAll(async () => {
  await fetcher?.close();
  await site?.close();
});

beforeEach(() => {
  logins = 0;
  sessions.clear();
});

describe('logins kept between checks', () => {
  it('ten checks of a site verified by replay log in once; a lapsed session is replayed once', async () => {
    signedOut = 'redirect';
    const kept = await checksInARow(10, replayLogin());
    expect(logins).toBe(1);

    sessions.clear();
    const renewed = await checksInARow(1, replayLogin(), kept);
    expect(logins).toBe(2);
    expect(renewed).not.toBe(kept);
    await checksInARow(3, replayLogin(), renewed);
    expect(logins).toBe(2);
  }, 120_000);

  it('a session whose cookie outlives it on the server is found lapsed by the login form on the page', async () => {
    signedOut = 'form';
    const kept = await checksInARow(10, cookieLogin);
    expect(logins).toBe(1);

    sessions.clear();
    const renewed = await checksInARow(2, cookieLogin, kept);
    expect(logins).toBe(2);
    expect(renewed).toContain('sid');
  }, 120_000);

  it('a session the site answers with 401 is replayed once, and so is a first check answered 401', async () => {
    signedOut = 'status';
    const kept = await checksInARow(3, replayLogin());
    expect(logins).toBe(1);
    sessions.clear();
    await checksInARow(2, replayLogin(), kept);
    expect(logins).toBe(2);
  }, 120_000);

  it('a lapse the page does not show is found by the missing area and replayed once', async () => {
    signedOut = 'silent';
    const kept = await checksInARow(3, replayLogin());
    expect(logins).toBe(1);
    sessions.clear();
    await checksInARow(2, replayLogin(), kept);
    expect(logins).toBe(2);
  }, 120_000);

  it('a wrong password still fails as login_failed after a lapse, without quoting what was typed', async () => {
    signedOut = 'redirect';
    const kept = await checksInARow(1, replayLogin());
    sessions.clear();
    const wrong: LoginSettings = {
      ...replayLogin(),
      actions: replayLogin().actions.map((action, index) =>
        index === 2 ? { ...action, value: 'wrong-password' } : action,
      ),
    };
    const result = await fetcher.fetch(request(wrong, kept), new AbortController().signal);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('login_failed');
    expect(result.detail).not.toContain('wrong-password');
    expect(logins).toBe(1);
  }, 120_000);
});
