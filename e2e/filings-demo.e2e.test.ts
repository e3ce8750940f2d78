import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { mailFromMailbox } from './mailbox.ts';
import {
  apiOf,
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

// Filings tried as a new user would in the one-command product: no source is named, so the
// bundled demo source answers (docs/filings.md#trying-filings), marked as demo on the screens
// and in the notices it sends.

const running = productAndBrowser();

/** A Discord webhook in Discord's own form; the product posts it to its /dev/discord stand-in. */
const DISCORD_WEBHOOK =
  'https://discord.com/api/webhooks/100000000000000034/mimamori-demo-filings-mimamori-demo-filings-stand-in';
/** Generous: a demo filing comes every 6 s here, and the outbox, bus and notifier share two cores. */
const NOTICE_WAIT_MS = 60_000;

async function newUserOnDashboard(
  locale: string,
  account: { email: string; labels: SignUpLabels; endTour: string },
): Promise<Page> {
  const context = await running.browser.newContext({ locale, viewport: WIDE });
  const page = await context.newPage();
  await signedUpAndIn(page, running.product.url, { ...account, password: 'demo-pass-1' });
  await page.getByRole('button', { name: account.endTour }).click();
  await expect.poll(() => page.getByRole('button', { name: account.endTour }).count()).toBe(0);
  return page;
}

describe('demo filings in the one-command product', () => {
  it('searches トヨタ, sees the demo marked, follows it and receives the demo notice by mail and on Discord — Japanese, 1280 and 375 px', async () => {
    const email = 'demo-filings-ja@example.com';
    const page = await newUserOnDashboard('ja-JP', {
      email,
      labels: SIGN_UP_LABELS.ja,
      endTour: 'ツアーを終了',
    });
    const linked = await apiOf(page.context(), running.product.url).post('/api/account/discord', {
      webhook_url: DISCORD_WEBHOOK,
    });
    expect(linked.status).toBe(200);

    const section = page.getByRole('region', { name: '企業の開示情報' });
    const note = section.getByTestId('filings-demo-note');
    await expect.poll(() => note.count()).toBe(1);
    expect(await note.textContent()).toContain('デモデータを表示しています');
    expect(await note.textContent()).toContain('docs/filings.md');

    await section.getByLabel('会社を検索').fill('トヨタ');
    const results = section.getByRole('list', { name: '検索結果' });
    await expect.poll(() => results.getByRole('listitem').count(), { timeout: 30_000 }).toBe(1);
    const result = results.getByRole('listitem');
    expect(await result.textContent()).toContain('トヨタ自動車株式会社');
    expect(await result.textContent()).toContain('証券コード 7203');
    expect(await result.locator('.filings-demo').textContent()).toBe('デモ');
    await expectNoSeriousAxeViolations(page);

    await results.getByRole('button', { name: '追加 トヨタ自動車株式会社 証券コード 7203' }).click();
    const followed = section.getByTestId('filings-followed');
    await expect.poll(() => followed.getByRole('listitem').count()).toBe(1);
    expect(await followed.locator('.filings-demo').textContent()).toBe('デモ');
    await screenshot(page, 'filings-demo-1280-ja');

    await page.setViewportSize(NARROW);
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, 'filings-demo-375-ja');

    // The demo publishes through the path real sources use: the mail and the Discord message
    // arrive as for any filing, and both say it is a demo.
    const mail = await mailFromMailbox(running.product.url, email, '[デモ]', NOTICE_WAIT_MS);
    expect(mail.text).toMatch(/企業: トヨタ自動車株式会社 \((7203|E02144)\)/);
    expect(mail.text).toMatch(/表題: \[デモ\] .+（デモ配信 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d）/);
    expect(mail.text).toMatch(/開示元: (TDnet|EDINET)/);
    const discordPage = async () => (await fetch(new URL('dev/discord', running.product.url))).text();
    await expect
      .poll(async () => /\[デモ\][^<]*（デモ配信/.test(await discordPage()), { timeout: NOTICE_WAIT_MS })
      .toBe(true);
    expect(await discordPage()).toContain('トヨタ自動車株式会社');
    await page.context().close();
  });

  it('finds Apple by ticker and CIK and Toyota by ISIN, each marked demo, never "Not found" or "Could not search" — English, 1280 and 375 px', async () => {
    const page = await newUserOnDashboard('en-US', {
      email: 'demo-filings-en@example.com',
      labels: SIGN_UP_LABELS.en,
      endTour: 'End the tour',
    });
    const section = page.getByRole('region', { name: 'Company filings' });
    await expect.poll(() => section.getByTestId('filings-demo-note').count()).toBe(1);
    expect(await section.getByTestId('filings-demo-note').textContent()).toContain('Showing demo data');
    const results = section.getByRole('list', { name: 'Search results' });
    const secSearch = section.getByLabel('Search by CIK, ticker or keyword');
    for (const query of ['AAPL', '320193']) {
      await secSearch.fill(query);
      await expect.poll(() => results.getByRole('listitem').count(), { timeout: 30_000 }).toBe(1);
      await expect.poll(() => results.getByRole('listitem').textContent()).toContain('CIK 320193');
      expect(await results.locator('.filings-demo').textContent()).toBe('Demo');
    }

    await section.getByRole('radio', { name: 'GlobeNewswire (ISIN)' }).check();
    await section.getByLabel('ISIN (12 characters)').fill('JP3633400001');
    await expect.poll(() => results.getByRole('listitem').count(), { timeout: 30_000 }).toBe(1);
    expect(await results.getByRole('listitem').textContent()).toContain('TOYOTA MOTOR CORPORATION');
    expect(await results.getByRole('listitem').textContent()).toContain('ISIN JP3633400001');
    expect(await results.locator('.filings-demo').textContent()).toBe('Demo');
    expect(await section.getByText('Could not search. Please try again.').count()).toBe(0);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, 'filings-demo-1280-en');

    await page.setViewportSize(NARROW);
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, 'filings-demo-375-en');
    await page.context().close();
  });
});
