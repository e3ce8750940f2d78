import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBrowserPageFetcher } from '../src/browser/browser-page-fetcher.ts';
import { createBrowserPool } from '../src/browser/browser-pool.ts';
import type { FetchRequest, LoginSettings, PageFetcher } from '../src/domain/page-fetcher.ts';
import { cookieLogin, type LoginSite, MEMBERS_TEXT, replayLogin, startLoginSite } from './login-site.ts';

// Logins kept between checks (ADR 0016): each check is given the session the one before kept,
// as the scheduler sends it; the whole loop through the queue is system-tests/kept-login.int.test.ts.
let login: LoginSite;
let fetcher: PageFetcher;

function request(settings: LoginSettings, sessionState: string | undefined): FetchRequest {
  return {
    url: `${login.site.origin}/members`,
    mode: 'browser',
    userAgent: { kind: 'chrome' },
    login: settings,
    ...(sessionState ? { sessionState } : {}),
    actions: [],
    areas: [{ areaId: 'secret', selector: '#secret', selectorType: 'css' }],
    screenshot: 'none',
    // Checks with a login never share a warm context: the kept session is all that carries over.
    accountId: 'u1',
  };
}

/** Runs `count` checks in a row, each given the session the one before kept. */
async function checksInARow(count: number, settings: LoginSettings, session?: string): Promise<string> {
  let kept = session;
  for (let index = 0; index < count; index++) {
    const result = await fetcher.fetch(request(settings, kept), new AbortController().signal);
    if (!result.ok) throw new Error(`check ${index + 1} failed: ${result.code}: ${result.detail}`);
    expect(result.areas[0]?.text).toBe(MEMBERS_TEXT);
    expect(result.sessionState).toBeTruthy();
    kept = result.sessionState;
  }
  return kept as string;
}

beforeAll(async () => {
  login = await startLoginSite();
  fetcher = createBrowserPageFetcher({
    pool: createBrowserPool({ allow: [login.site.authority], pagesPerBrowser: 2 }),
    limits: { loadTimeoutMs: 10_000, settleTimeoutMs: 4_000, actionTimeoutMs: 5_000 },
  });
});

afterAll(async () => {
  await fetcher?.close();
  await login?.site.close();
});

beforeEach(() => login.reset());

describe('logins kept between checks', () => {
  it('ten checks of a site verified by replay log in once; a lapsed session is replayed once', async () => {
    const kept = await checksInARow(10, replayLogin(login.site));
    expect(login.logins()).toBe(1);

    login.expireSessions();
    const renewed = await checksInARow(1, replayLogin(login.site), kept);
    expect(login.logins()).toBe(2);
    expect(renewed).not.toBe(kept);
    await checksInARow(3, replayLogin(login.site), renewed);
    expect(login.logins()).toBe(2);
  }, 120_000);

  it('a session whose cookie outlives it on the server is found lapsed by the login form on the page', async () => {
    login.answerSignedOut('form');
    const kept = await checksInARow(10, cookieLogin);
    expect(login.logins()).toBe(1);

    login.expireSessions();
    const renewed = await checksInARow(2, cookieLogin, kept);
    expect(login.logins()).toBe(2);
    expect(renewed).toContain('sid');
  }, 120_000);

  it('a session the site answers with 401 is replayed once, and so is a first check answered 401', async () => {
    login.answerSignedOut('status');
    const kept = await checksInARow(3, replayLogin(login.site));
    expect(login.logins()).toBe(1);
    login.expireSessions();
    await checksInARow(2, replayLogin(login.site), kept);
    expect(login.logins()).toBe(2);
  }, 120_000);

  it('a lapse the page does not show is found by the missing area and replayed once', async () => {
    login.answerSignedOut('silent');
    const kept = await checksInARow(3, replayLogin(login.site));
    expect(login.logins()).toBe(1);
    login.expireSessions();
    await checksInARow(2, replayLogin(login.site), kept);
    expect(login.logins()).toBe(2);
  }, 120_000);

  it('a wrong password still fails as login_failed after a lapse, without quoting what was typed', async () => {
    const kept = await checksInARow(1, replayLogin(login.site));
    login.expireSessions();
    const right = replayLogin(login.site);
    const wrong: LoginSettings = {
      ...right,
      actions: right.actions.map((action, index) =>
        index === 2 ? { ...action, value: 'wrong-password' } : action,
      ),
    };
    const result = await fetcher.fetch(request(wrong, kept), new AbortController().signal);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('login_failed');
    expect(result.detail).not.toContain('wrong-password');
    expect(login.logins()).toBe(1);
  }, 120_000);
});
