import type { EgressGuard } from '@mimamori/egress';
import type { BrowserContext, Page, Response } from 'playwright-core';
import type { LoginSettings } from '../domain/page-fetcher.ts';
import { CrawlFailure } from '../http/crawl-failure.ts';
import { type ActionLimits, runActions } from './page-actions.ts';
import { loadPage } from './page-load.ts';

const LOGIN_TRIES = 3;

/**
 * Makes sure the context is signed in to the site whose page `url` is. A kept session that
 * still has its cookie is trusted without replaying anything; otherwise the login actions are
 * replayed (up to three tries) and, for cookie verification, the cookie must then be present.
 * Leaves the page on `url`, loaded, and returns that load's response. Nothing here logs: the actions carry passwords.
 */
export async function ensureSignedIn(
  page: Page,
  url: string,
  login: LoginSettings,
  limits: ActionLimits,
  guard: EgressGuard,
): Promise<Response> {
  const first = await loadPage(page, url, limits, guard);
  if (login.verify.kind === 'cookie' && (await hasCookie(page.context(), url, login.verify.name)))
    return first;
  let lastProblem = 'the login did not succeed';
  for (let attempt = 1; attempt <= LOGIN_TRIES; attempt++) {
    try {
      if (attempt > 1) await loadPage(page, url, limits, guard);
      await runActions(page, login.actions, limits, guard);
      if (login.verify.kind === 'cookie' && !(await hasCookie(page.context(), url, login.verify.name))) {
        lastProblem = `the cookie ${login.verify.name} was not set after the login`;
        continue;
      }
      return await loadPage(page, url, limits, guard);
    } catch (error) {
      if (!(error instanceof CrawlFailure) || error.code === 'refused_address') throw error;
      lastProblem = error.detail;
    }
  }
  throw new CrawlFailure('login_failed', `login failed after ${LOGIN_TRIES} tries: ${lastProblem}`, false);
}

async function hasCookie(context: BrowserContext, url: string, name: string): Promise<boolean> {
  const now = Date.now() / 1000;
  const cookies = await context.cookies(url);
  return cookies.some((cookie) => cookie.name === name && (cookie.expires === -1 || cookie.expires > now));
}
