import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  apiOf,
  expectNoSeriousAxeViolations,
  expectNoSidewaysOverflow,
  NARROW,
  openPage,
  productAndBrowser,
  SIGN_UP_LABELS,
  screenshot,
  signedUpAndIn,
  WIDE,
} from './steps.ts';

// Billing through the screens on the one-process product, which bills through its local Stripe
// stand-in (no Stripe keys): prices on sign-up, the test card form, plan change, cancel and undo,
// a renewal the card cannot pay (status 6), the hold after its deadline (7) and the card update
// that lifts it, leaving the paused site paused. The stand-in's test clock moves billing's time;
// every test shares it, so they run in order and each moves it only forward.

const PRICES = {
  2: { month: { JPY: 500, USD: 400 }, year: { JPY: 5000, USD: 4000 } },
  3: { month: { JPY: 980, USD: 700 }, year: { JPY: 9800, USD: 7000 } },
  5: { month: { JPY: 2980, USD: 2000 }, year: { JPY: 29800, USD: 20000 } },
};
const ADDON_PRICES = { sites_5: { month: { JPY: 400, USD: 300 }, year: { JPY: 4000, USD: 3000 } } };

const running = productAndBrowser(() => ({
  env: {
    PLAN_PRICES: JSON.stringify(PRICES),
    ADDON_PRICES: JSON.stringify(ADDON_PRICES),
    // A passed hold deadline is acted on soon after the clock moves.
    TRIAL_SWEEP_INTERVAL_MS: '1000',
  },
}));

const DAY = 86_400;
const pageUrl = (path: string) => new URL(path, running.product.url).href;

/** The stand-in's address, as the product prints it. */
function standInUrl(): string {
  const match = /Stripe stand-in \(billing without Stripe\): (http:\/\/127\.0\.0\.1:\d+)/.exec(
    running.product.output(),
  );
  if (!match?.[1])
    throw new Error(`the product did not start the Stripe stand-in:\n${running.product.output()}`);
  return match[1];
}

/** Stripe's test-clock calls, as a person moving a test account's time would make them. */
async function stripeCall(path: string, form: Record<string, string> = {}) {
  const response = await fetch(new URL(path, standInUrl()), {
    method: 'POST',
    headers: { authorization: 'Bearer sk_test_e2e', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { id: string; frozen_time: number };
}

async function advanceDays(days: number) {
  const clock = await stripeCall('/v1/test_helpers/test_clocks');
  await stripeCall(`/v1/test_helpers/test_clocks/${clock.id}/advance`, {
    frozen_time: String(clock.frozen_time + days * DAY),
  });
}

type Billing = { status: number; has_pi: boolean; booked: unknown; cancel_at_period_end: boolean };

/** The page's sites as the dashboard lists them: whether each is monitored, and may be resumed. */
async function sitesOf(page: Page): Promise<{ valid: boolean; resumable: boolean }[]> {
  const { status, body } = await apiOf(page.context(), running.product.url).get('/api/v2/targets');
  expect(status).toBe(200);
  return (body as { targets: { valid: boolean; resumable: boolean }[] }).targets;
}

/** GET /api/billing with the page's own session. */
async function billingOf(page: Page): Promise<Billing> {
  const response = await page.context().request.get(pageUrl('/api/billing'));
  expect(response.status()).toBe(200);
  return (await response.json()) as Billing;
}

const EN = SIGN_UP_LABELS.en;
const JA = SIGN_UP_LABELS.ja;

async function finished(page: Page, name: string) {
  await expectNoSeriousAxeViolations(page);
  await expectNoSidewaysOverflow(page);
  await screenshot(page, name);
}

describe('billing through the screens', () => {
  it('shows each plan’s monthly price on sign-up, in yen in Japanese and dollars in English', async () => {
    const page = await openPage(running.browser, 'ja-JP', NARROW);
    await page.goto(pageUrl('/signup'));
    await expect.poll(() => page.getByTestId('plan-price-3').textContent()).toBe('¥980 / 月（税込）');
    expect(await page.getByTestId('plan-price-5').textContent()).toBe('¥2,980 / 月（税込）');
    // Configuration sells no more than these: the others say so rather than showing a price.
    expect(await page.getByTestId('plan-price-11').textContent()).toBe('—');
    // 総額表示: the table's prices include the consumption tax, and the note under it says so.
    expect(await page.locator('.plan-table').textContent()).toContain('表示価格は消費税10%込みの総額です。');
    await finished(page, 'billing-signup-375-ja');
    await page.context().close();

    const english = await openPage(running.browser, 'en-US', WIDE);
    await english.goto(pageUrl('/signup'));
    await expect.poll(() => english.getByTestId('plan-price-3').textContent()).toBe('$7.00 / month');
    expect(await english.locator('.plan-table').textContent()).toContain(
      'Dollar prices are for customers outside Japan and carry no Japanese consumption tax.',
    );
    await finished(english, 'billing-signup-1280-en');
    await english.context().close();
  }, 120_000);

  it('registers a card with the test form, changes the plan now and at renewal, cancels and undoes', async () => {
    const page = await openPage(running.browser, 'en-US', WIDE);
    const account = { email: 'card-holder@example.com', password: 'mimamori-pass-1', labels: EN };
    await signedUpAndIn(page, running.product.url, account);

    await page.goto(pageUrl('/newcard'));
    const form = page.getByTestId('test-card-form');
    await expect.poll(() => form.count(), { timeout: 15_000 }).toBe(1);
    expect(await form.textContent()).toContain('Test mode');
    await finished(page, 'billing-newcard-1280-en');
    await form.getByRole('radio', { name: 'Visa (test, payments succeed)' }).check();
    // During the trial the first card is a paid order: confirmed as one, its button says so.
    await form.getByRole('button', { name: 'Place order (paid)' }).click();
    await expect
      .poll(() => page.getByRole('status').first().textContent(), { timeout: 30_000 })
      .toContain('Your card (Visa •••• 4242, expires');
    await page.getByRole('link', { name: 'Go to your account' }).click();
    await expect
      .poll(() => page.getByTestId('account-card').textContent())
      .toMatch(/^Visa •••• 4242 \(expires \d\d\/\d{4}\)$/);
    expect(await page.getByTestId('account-status').textContent()).toBe('Free trial');
    expect(await page.getByTestId('account-price').textContent()).toBe(
      '$7.00 / month (no Japanese consumption tax)',
    );
    expect((await billingOf(page)).has_pi).toBe(true);
    await finished(page, 'billing-account-1280-en');

    // During the trial a change applies at once; there is no choice of when.
    await page.goto(pageUrl('/planchange'));
    const change = page.getByTestId('plan-change-form');
    await expect.poll(() => change.count()).toBe(1);
    expect(await change.getByRole('radio', { name: 'Change at the next renewal' }).count()).toBe(0);
    await change.getByRole('radio', { name: /^Basic 25 25 sites/ }).check();
    await change.getByRole('button', { name: 'Place order (paid)' }).click();
    await expect
      .poll(() => page.getByRole('status').first().textContent(), { timeout: 30_000 })
      .toBe('Your plan is now Basic 25 (monthly).');
    expect(await page.getByTestId('current-plan').textContent()).toBe(
      'Basic 25 (monthly) · $20.00 / month (no Japanese consumption tax)',
    );

    // The trial ends with a card on file: the subscription is paid and active.
    await advanceDays(15);
    await expect.poll(async () => (await billingOf(page)).status, { timeout: 30_000 }).toBe(2);
    await page.reload();

    // Booked for the next renewal: a custom plan with 5 more sites, then withdrawn.
    await expect.poll(() => change.count()).toBe(1);
    await change.getByRole('radio', { name: /^Custom/ }).check();
    await page.getByLabel('Extra sites (units of 5)').fill('1');
    // Prices show once the plans have loaded after the reload (a dash until then).
    await expect
      .poll(() => change.locator('label.plan-row', { hasText: 'Custom' }).textContent())
      .toContain('$7.00 / month');
    await change.getByRole('radio', { name: /^Change at the next renewal/ }).check();
    await finished(page, 'billing-planchange-1280-en');
    await change.getByRole('button', { name: 'Place order (paid)' }).click();
    await expect
      .poll(() => page.getByTestId('booked-plan').textContent(), { timeout: 30_000 })
      .toContain('A change to Custom 10 sites (monthly) is booked for the renewal on');
    expect(await page.getByTestId('current-plan').textContent()).toContain('Basic 25 (monthly)');
    await page.getByRole('button', { name: 'Withdraw the booked change' }).click();
    await expect.poll(() => page.getByTestId('booked-plan').count(), { timeout: 30_000 }).toBe(0);
    expect((await billingOf(page)).booked).toBeNull();

    // At once, after the trial: back to Basic 5, the rest of the period offset.
    await change.getByRole('radio', { name: /^Basic 5 5 sites/ }).check();
    await change.getByRole('radio', { name: 'Change now' }).check();
    await change.getByRole('button', { name: 'Place order (paid)' }).click();
    await expect
      .poll(() => page.getByTestId('current-plan').textContent(), { timeout: 30_000 })
      .toBe('Basic 5 (monthly) · $7.00 / month (no Japanese consumption tax)');

    // Cancel: a reason is required, the confirmation names the last day, and undo restores it.
    await page.goto(pageUrl('/cancel'));
    const cancel = page.getByTestId('cancel-form');
    await expect.poll(() => cancel.count()).toBe(1);
    await cancel.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect.poll(() => cancel.getByRole('alert').textContent()).toBe('Choose at least one reason.');
    await cancel.getByRole('checkbox', { name: 'It is too expensive' }).check();
    await cancel.getByRole('checkbox', { name: 'I am moving to another service' }).check();
    await page.getByLabel('Comments (optional)').fill('Cheaper elsewhere.');
    await finished(page, 'billing-cancel-1280-en');
    await cancel.getByRole('button', { name: 'Cancel subscription' }).click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain('You keep the service until');
    await confirm.getByRole('button', { name: 'Cancel subscription' }).click();
    const booked = page.getByTestId('cancel-booked');
    await expect
      .poll(() => booked.textContent(), { timeout: 30_000 })
      .toContain('Your subscription is cancelled. You keep the service until');
    expect((await billingOf(page)).cancel_at_period_end).toBe(true);
    await booked.getByRole('button', { name: 'Undo cancellation' }).click();
    const undone = page.getByRole('status').filter({ hasText: 'Your cancellation is undone.' });
    await expect.poll(() => undone.count(), { timeout: 30_000 }).toBe(1);
    expect((await billingOf(page)).cancel_at_period_end).toBe(false);
    await page.setViewportSize(NARROW);
    await finished(page, 'billing-cancel-375-en');
    await page.context().close();
  }, 300_000);

  it('warns of a failed renewal with a retry, holds after the deadline, and a card update lifts the hold', async () => {
    const page = await openPage(running.browser, 'ja-JP', NARROW);
    const account = { email: 'declined@example.com', password: 'mimamori-pass-1', labels: JA };
    await signedUpAndIn(page, running.product.url, account);
    // One watched site, the product's own demo shop, to see what the hold does to monitoring.
    const imported = await apiOf(page.context(), running.product.url).post('/api/v1/import', {
      text: `${pageUrl('/mock/ec')},Demo shop`,
    });
    expect(imported.status).toBe(200);
    expect((await sitesOf(page)).map((site) => site.valid)).toEqual([true]);

    // A card that registers but whose every charge is declined.
    await page.goto(pageUrl('/newcard'));
    const form = page.getByTestId('test-card-form');
    await expect.poll(() => form.count(), { timeout: 15_000 }).toBe(1);
    await form.getByRole('radio', { name: 'Visa(テスト用・登録はできるが支払いは拒否)' }).check();
    await finished(page, 'billing-newcard-375-ja');
    await form.getByRole('button', { name: '注文を確定する（有料）' }).click();
    await expect
      .poll(() => page.getByRole('status').first().textContent(), { timeout: 30_000 })
      .toContain('•••• 0341');

    // The trial ends and the first charge is declined: status 6 with a deadline.
    await advanceDays(15);
    await expect.poll(async () => (await billingOf(page)).status, { timeout: 30_000 }).toBe(6);
    await page.goto(pageUrl('/'));
    const banner = page.getByTestId('subscription-banner');
    await expect
      .poll(() => banner.textContent(), { timeout: 15_000 })
      .toContain('サブスクリプションの更新に失敗しました。');
    expect(await banner.getByRole('link', { name: 'カードを更新' }).getAttribute('href')).toBe('/account');
    await banner.getByRole('button', { name: 'お支払いを再処理' }).click();
    await expect
      .poll(() => banner.getByRole('alert').textContent(), { timeout: 30_000 })
      .toBe('カードでのお支払いが再び拒否されました。カードを更新してください。');
    await finished(page, 'billing-banner6-375-ja');
    await page.setViewportSize(WIDE);
    await finished(page, 'billing-banner6-1280-ja');

    // Past the deadline the account is on hold.
    await advanceDays(8);
    await expect.poll(async () => (await billingOf(page)).status, { timeout: 30_000 }).toBe(7);
    await page.reload();
    await expect.poll(() => banner.textContent(), { timeout: 15_000 }).toContain('アカウントが保留中のため');
    // Monitoring stops: the site is paused.
    await expect
      .poll(async () => (await sitesOf(page)).map((site) => site.valid), { timeout: 30_000 })
      .toEqual([false]);

    // A card update on the account screen pays what is open and lifts the hold.
    await page.goto(pageUrl('/account'));
    await expect.poll(() => page.getByTestId('account-status').textContent()).toBe('保留中');
    await page.getByRole('button', { name: 'カードを更新' }).click();
    const update = page.getByTestId('test-card-form');
    await update.getByRole('radio', { name: 'Visa(テスト用・支払い成功)' }).check();
    await finished(page, 'billing-account-update-1280-ja');
    await update.getByRole('button', { name: 'カードを登録' }).click();
    await expect
      .poll(() => page.getByTestId('account-card').textContent(), { timeout: 30_000 })
      .toMatch(/^Visa •••• 4242/);
    await expect
      .poll(() => page.getByTestId('account-status').textContent(), { timeout: 30_000 })
      .toBe('ご契約中');
    await page.goto(pageUrl('/'));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).count()).toBeGreaterThan(0);
    expect(await page.getByTestId('subscription-banner').count()).toBe(0);
    // The hold is lifted, but the site stays paused until its owner resumes it; it may be.
    expect(await sitesOf(page)).toMatchObject([{ valid: false, resumable: true }]);
    await page.context().close();
  }, 300_000);
});
