import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './product.ts';
import {
  expectNoSeriousAxeViolations,
  expectNoSidewaysOverflow,
  NARROW,
  productAndBrowser,
  SIGN_UP_LABELS,
  type SignUpLabels,
  screenshot,
  signedUpAndIn,
  WIDE,
} from './steps.ts';

// The dashboard's filings section (docs/product.md#filings) against the running product, whose
// filings service reads a local stand-in for the EDINET code list, the SEC's tickers file and
// GlobeNewswire, replaying the filings service's recorded fixtures.

const fixture = (name: string) => readFileSync(join(repoRoot, 'services/filings/test/fixtures', name));

/** Paths the stand-in was asked for, in order. */
const sourceRequests: string[] = [];
/** While true, GlobeNewswire answers 429 as it does to too many requests. */
let globeNewswireBusy = false;

function startSources(): Promise<Server> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://stand-in.test').pathname;
    sourceRequests.push(path);
    if (path === '/edinet/Edinetcode.zip') {
      response.writeHead(200, { 'content-type': 'application/zip' }).end(fixture('edinet/Edinetcode.zip'));
    } else if (path === '/sec/files/company_tickers.json') {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(fixture('sec/company_tickers.json'));
    } else if (path.startsWith('/gnw/RssFeed/keyword/') && globeNewswireBusy) {
      response.writeHead(429, { 'content-type': 'text/html', 'retry-after': '120' }).end('Too Many Requests');
    } else if (path === '/gnw/RssFeed/keyword/US0378331005') {
      response
        .writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' })
        .end(fixture('globenewswire/keyword-US0378331005.xml'));
    } else {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let sources: Server;
const sourcesUrl = () => `http://127.0.0.1:${(sources.address() as AddressInfo).port}`;

// Registered before productAndBrowser's, so the stand-in listens before the product starts.
beforeAll(async () => {
  sources = await startSources();
});
afterAll(async () => {
  await new Promise((resolve) => sources?.close(resolve));
});

const running = productAndBrowser(() => ({
  env: {
    MIMAMORI_FILINGS_SOURCES: 'tdnet,sec,globenewswire',
    FILINGS_USER_AGENT: 'Mimamori e2e ops@example.com',
    EDINET_CODE_LIST_URL: `${sourcesUrl()}/edinet/Edinetcode.zip`,
    // Polls find no day page and back off; these tests follow, they do not wait for filings.
    TDNET_LIST_URL: `${sourcesUrl()}/tdnet/`,
    SEC_WWW_URL: `${sourcesUrl()}/sec`,
    SEC_DATA_URL: `${sourcesUrl()}/sec-data`,
    GLOBENEWSWIRE_URL: `${sourcesUrl()}/gnw`,
  },
}));

const JA = SIGN_UP_LABELS.ja;
const EN = SIGN_UP_LABELS.en;

/** A new user on the dashboard, with the first-visit tour ended (it is not what these tests look at). */
async function newUserOnDashboard(
  locale: string,
  timezoneId: string,
  account: { email: string; labels: SignUpLabels; endTour: string },
): Promise<Page> {
  const context = await running.browser.newContext({ locale, timezoneId, viewport: WIDE });
  const page = await context.newPage();
  const { email, labels } = account;
  await signedUpAndIn(page, running.product.url, { email, password: 'filings-pass-1', labels });
  await page.getByRole('button', { name: account.endTour }).click();
  await expect.poll(() => page.getByRole('button', { name: account.endTour }).count()).toBe(0);
  return page;
}

/**
 * The filings service reads both directories from the stand-in once it starts; a search before
 * that finds nothing, so the tests wait for both, reading the product's log.
 */
async function directoriesLoaded(): Promise<void> {
  const loaded = () =>
    ['japanese', 'sec'].every((name) =>
      running.product
        .output()
        .includes(`"directory":"${name}","companies":3,"msg":"company directory refreshed"`),
    );
  const directoryLines = () =>
    running.product
      .output()
      .split('\n')
      .filter((line) => line.includes('directory'))
      .join('\n');
  try {
    await expect.poll(loaded, { timeout: 60_000 }).toBe(true);
  } catch (error) {
    throw new Error(`the filings directories did not load; the product said:\n${directoryLines()}`, {
      cause: error,
    });
  }
}

/** Every filings call the page sends, by path. */
function filingsCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (/^\/api\/(tdedi|cik|isin|cikisin)\//.test(path)) calls.push(path);
  });
  return calls;
}

/** A pause longer than the typing pause, to show that nothing was sent after it. */
const settle = () => sleep(1_500);

/**
 * Records, in the page's own clock, when the 'added' flag appears and goes, so its duration is
 * read from the page rather than from this process's polling.
 */
async function watchAddedFlag(page: Page, flag: string): Promise<void> {
  await page.evaluate((text) => {
    const times: { shown?: number; gone?: number } = {};
    (window as unknown as { addedFlag: typeof times }).addedFlag = times;
    const present = () =>
      [...document.querySelectorAll('.filings-added')].some((badge) => badge.textContent === text);
    new MutationObserver(() => {
      if (times.shown === undefined && present()) times.shown = performance.now();
      else if (times.shown !== undefined && times.gone === undefined && !present())
        times.gone = performance.now();
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  }, flag);
}

async function addedFlagTimes(page: Page): Promise<{ shown?: number; gone?: number }> {
  return page.evaluate(
    () => (window as unknown as { addedFlag: { shown?: number; gone?: number } }).addedFlag,
  );
}

describe('filings section against the running product', () => {
  it('searches the Japanese directory from 3 characters, follows with a 3-second flag and unfollows — Japanese, 1280 and 375 px', async () => {
    const page = await newUserOnDashboard('ja-JP', 'Asia/Tokyo', {
      email: 'filings-ja@example.com',
      labels: JA,
      endTour: 'ツアーを終了',
    });
    await directoriesLoaded();
    const calls = filingsCalls(page);
    const section = page.getByRole('region', { name: '企業の開示情報' });
    await expect.poll(() => section.getByText('フォロー中の企業はまだありません。').count()).toBe(1);
    const search = section.getByLabel('会社を検索');

    // Two characters send nothing, however long one waits.
    await search.fill('トヨ');
    await settle();
    expect(calls).toEqual([]);
    expect(await section.getByRole('list', { name: '検索結果' }).count()).toBe(0);

    // Three characters search; kana and full-width forms are folded by the service.
    await search.fill('とよた');
    const results = section.getByRole('list', { name: '検索結果' });
    await expect.poll(() => results.getByRole('listitem').count(), { timeout: 30_000 }).toBe(1);
    expect(calls).toEqual(['/api/tdedi/search']);
    expect(await results.getByRole('listitem').textContent()).toContain('トヨタ自動車株式会社');
    expect(await results.getByRole('listitem').textContent()).toContain('証券コード 7203');
    await expectNoSeriousAxeViolations(page);

    // A name matching nothing says so.
    await search.fill('存在しない会社');
    await expect.poll(() => section.getByText('見つかりませんでした。').count()).toBe(1);

    // Following: the company joins the list with its 'added' flag, which goes after 3 seconds.
    await search.fill('7203');
    await expect.poll(() => results.getByRole('listitem').count()).toBe(1);
    await watchAddedFlag(page, '追加しました');
    await results.getByRole('button', { name: '追加 トヨタ自動車株式会社 証券コード 7203' }).click();
    const followed = section.getByTestId('filings-followed');
    await expect.poll(() => followed.getByRole('listitem').count()).toBe(1);
    expect(await followed.getByRole('listitem').textContent()).toContain('トヨタ自動車株式会社');
    expect(
      await results.getByRole('button', { name: '追加済み トヨタ自動車株式会社 証券コード 7203' }).count(),
    ).toBe(1);
    await screenshot(page, 'filings-1280-ja');
    await expect.poll(async () => (await addedFlagTimes(page)).gone, { timeout: 20_000 }).toBeDefined();
    const flag = await addedFlagTimes(page);
    expect((flag.gone ?? 0) - (flag.shown ?? 0)).toBeGreaterThanOrEqual(2_900);
    expect(await followed.locator('.filings-added').count()).toBe(0);

    // The follow is the account's: it is there after a reload, from user_info.
    await page.reload();
    await expect.poll(() => followed.getByRole('listitem').count()).toBe(1);

    // Narrow.
    await page.setViewportSize(NARROW);
    await section.getByLabel('会社を検索').fill('ベリテ');
    await expect.poll(() => results.getByRole('listitem').count()).toBe(1);
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, 'filings-375-ja');

    // Unfollowing empties the list, for good.
    await section.getByRole('button', { name: '削除 トヨタ自動車株式会社 証券コード 7203' }).click();
    await expect.poll(() => section.getByText('トヨタ自動車株式会社 を削除しました。').count()).toBe(1);
    await expect.poll(() => section.getByText('フォロー中の企業はまだありません。').count()).toBe(1);
    await page.reload();
    await expect.poll(() => section.getByText('フォロー中の企業はまだありません。').count()).toBe(1);
    await page.context().close();
  });

  it('checks an ISIN before sending it, says when to try again on a 429, and follows SEC and ISIN companies — English, 1280 and 375 px', async () => {
    const page = await newUserOnDashboard('en-US', 'America/New_York', {
      email: 'filings-en@example.com',
      labels: EN,
      endTour: 'End the tour',
    });
    await directoriesLoaded();
    const calls = filingsCalls(page);
    const section = page.getByRole('region', { name: 'Company filings' });
    await expect.poll(() => section.getByText('You follow no companies yet.').count()).toBe(1);
    const results = section.getByRole('list', { name: 'Search results' });

    // SEC by ticker, from 3 characters.
    const secSearch = section.getByLabel('Search by CIK, ticker or keyword');
    await secSearch.fill('AA');
    await settle();
    expect(calls).toEqual([]);
    await secSearch.fill('AAPL');
    await expect.poll(() => results.getByRole('listitem').count(), { timeout: 30_000 }).toBe(1);
    expect(await results.getByRole('listitem').textContent()).toContain('CIK 320193');
    await results.getByRole('button', { name: 'Add Apple Inc. CIK 320193' }).click();
    const followed = section.getByTestId('filings-followed');
    await expect.poll(() => followed.getByRole('listitem').count()).toBe(1);
    expect(await followed.locator('.filings-added').textContent()).toBe('Added');

    // ISIN: checked here, so neither a short nor a mistyped ISIN reaches the gateway or the source.
    await section.getByRole('radio', { name: 'GlobeNewswire (ISIN)' }).check();
    const isinBox = section.getByLabel('ISIN (12 characters)');
    expect(
      await section.getByRole('link', { name: /Look up an ISIN from a ticker/ }).getAttribute('href'),
    ).toMatch(/^https:\/\//);
    const sentBefore = calls.length;
    await isinBox.fill('US037833100');
    expect(await section.getByText('ISIN is 12 characters.').count()).toBe(1);
    await isinBox.fill('US0378331006');
    expect(await section.getByText('ISIN is invalid.').count()).toBe(1);
    expect(await isinBox.getAttribute('aria-invalid')).toBe('true');
    await settle();
    expect(calls.slice(sentBefore)).toEqual([]);
    expect(sourceRequests.filter((path) => path.startsWith('/gnw/'))).toEqual([]);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, 'filings-invalid-isin-1280-en');

    // GlobeNewswire answering 429: the section says to try again in a few minutes.
    globeNewswireBusy = true;
    await isinBox.fill('US0378331005');
    await expect
      .poll(() => section.getByText('Too many searches. Please try again in a few minutes.').count(), {
        timeout: 30_000,
      })
      .toBe(1);
    expect(calls.slice(sentBefore)).toContain('/api/isin/search');

    // Once it answers again, the issuer is found and followed beside the SEC company.
    globeNewswireBusy = false;
    await isinBox.fill('');
    await isinBox.fill('US0378331005');
    await expect.poll(() => results.getByRole('listitem').count(), { timeout: 30_000 }).toBe(1);
    expect(await results.getByRole('listitem').textContent()).toContain('ISIN US0378331005');
    const issuer = (await results.locator('.filings-name').textContent()) ?? '';
    await results.getByRole('button', { name: `Add ${issuer} ISIN US0378331005` }).click();
    await expect.poll(() => followed.getByRole('listitem').count()).toBe(2);

    await page.setViewportSize(NARROW);
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, 'filings-375-en');

    await section.getByRole('button', { name: 'Delete Apple Inc. CIK 320193' }).click();
    await expect.poll(() => followed.getByRole('listitem').count()).toBe(1);
    expect(await followed.textContent()).toContain('ISIN US0378331005');
    await page.context().close();
  });
});
