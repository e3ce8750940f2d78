import type { EgressGuard } from '@mimamori/egress';
import type { BrowserContext, Page, Response } from 'playwright-core';
import type { LoginSettings } from '../domain/page-fetcher.ts';
import { CrawlFailure } from '../http/crawl-failure.ts';
import { type ActionLimits, elementOf, runActions } from './page-actions.ts';
import { loadPage } from './page-load.ts';

const LOGIN_TRIES = 3;

export interface SignedIn {
  /** The response of the last load of `url`. */
  response: Response;
  /** Whether the login actions were replayed in this check (false: a kept session was trusted). */
  replayed: boolean;
}

/**
 * Makes sure the context is signed in to the site whose page `url` is. A session kept from
 * the previous check (`kept`) is trusted unless it shows it has lapsed (docs/product.md#login-and-actions):
 * a 401 or 403, the verify cookie gone, or the login form on the page. Otherwise, or with
 * `force`, the login actions are replayed (up to three tries): for cookie verification the
 * cookie must then be present, otherwise the page must no longer show the login. Leaves the
 * page on `url`, loaded.
 * Nothing here logs: the actions carry passwords.
 */
export async function ensureSignedIn(
  page: Page,
  url: string,
  login: LoginSettings,
  limits: ActionLimits,
  guard: EgressGuard,
  { kept, force = false }: { kept: boolean; force?: boolean },
): Promise<SignedIn> {
  if (!force) {
    const first = await loadSignedOutAllowed(page, url, limits, guard);
    if (first && (await stillSignedIn(page, url, login, kept))) return { response: first, replayed: false };
  }
  let lastProblem = 'the login did not succeed';
  for (let attempt = 1; attempt <= LOGIN_TRIES; attempt++) {
    try {
      if (attempt > 1 || force) await loadPage(page, url, limits, guard);
      await runActions(page, login.actions, limits, guard);
      if (login.verify.kind === 'cookie' && !(await hasCookie(page.context(), url, login.verify.name))) {
        lastProblem = `the cookie ${login.verify.name} was not set after the login`;
        continue;
      }
      const response = await loadPage(page, url, limits, guard);
      // A cookie the user chose to verify by has just been set: it says the login took, even
      // where the page keeps its form in view. Without one, the page must stop asking.
      if (login.verify.kind !== 'cookie' && (await showsLogin(page, login))) {
        lastProblem = 'the page still asks to sign in after the login';
        continue;
      }
      return { response, replayed: true };
    } catch (error) {
      if (!(error instanceof CrawlFailure) || error.code === 'refused_address') throw error;
      lastProblem = error.detail;
    }
  }
  throw new CrawlFailure('login_failed', `login failed after ${LOGIN_TRIES} tries: ${lastProblem}`, false);
}

/**
 * Loads `url`. Many sites answer a signed-out visitor, or a lapsed session, with 401 or 403:
 * that answer is left on the page (it often holds the login form) and undefined returned, so
 * the login is replayed; the reload after it tells whether the status was about signing in.
 */
async function loadSignedOutAllowed(
  page: Page,
  url: string,
  limits: ActionLimits,
  guard: EgressGuard,
): Promise<Response | undefined> {
  try {
    return await loadPage(page, url, limits, guard);
  } catch (error) {
    if (error instanceof CrawlFailure && error.code === 'http_status' && /^HTTP 40[13] /.test(error.detail))
      return undefined;
    throw error;
  }
}

/**
 * Whether the page just loaded is the signed-in one. Without a kept session only a present
 * verify cookie (which the user's own cookies may carry) counts; either way, a page that shows
 * the login form, or is the page the login starts on, is signed out.
 */
async function stillSignedIn(page: Page, url: string, login: LoginSettings, kept: boolean): Promise<boolean> {
  if (login.verify.kind === 'cookie') {
    if (!(await hasCookie(page.context(), url, login.verify.name))) return false;
  } else if (!kept) return false;
  return !(await showsLogin(page, login));
}

async function showsLogin(page: Page, login: LoginSettings): Promise<boolean> {
  const [first] = login.actions;
  if (first?.type === 'goto_url' && first.value && samePage(page.url(), first.value)) return true;
  // The field the login types into first is the form's mark. A click alone (a menu, a cookie
  // banner, a sign-in button that stays on the page) says less: it counts only when the login
  // types nothing and has no cookie to verify by, since a present cookie already says it took.
  const located = login.actions.filter((action) => action.locator && action.type !== 'goto_url');
  const typed = located.find((action) => action.type === 'enter_text');
  const mark = typed ?? (login.verify.kind === 'cookie' ? undefined : located[0]);
  if (!mark?.locator) return false;
  return elementOf(page, mark.locator)
    .isVisible()
    .catch(() => false);
}

function samePage(current: string, other: string): boolean {
  try {
    const a = new URL(current);
    const b = new URL(other, current);
    return a.origin === b.origin && a.pathname === b.pathname;
  } catch {
    return false;
  }
}

async function hasCookie(context: BrowserContext, url: string, name: string): Promise<boolean> {
  const now = Date.now() / 1000;
  const cookies = await context.cookies(url);
  return cookies.some((cookie) => cookie.name === name && (cookie.expires === -1 || cookie.expires > now));
}
