import type { Locator, Page } from 'playwright-core';
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
  signIn,
  WIDE,
} from './steps.ts';

// Every subscription state on every screen it changes (docs/product.md#subscription): the dashboard
// banner, the account page, /planchange, /cancel, a site's page and the tour, each read in Japanese
// and English at 1280 and 375 px, with a screenshot per state, screen, language and width under
// test-results/. Four accounts share the product and the Stripe stand-in's one clock; each is in
// a different state at the same moment, and the clock only moves forward, so the tests run in order:
//   trial (no card) ─12 d─▶ its last 3 days ─15 d─▶ trial ended, on hold (no card) ─card─▶ hold lifted
//   trial with a card ─15 d─▶ active ─cancel─▶ cancelling ─45 d─▶ ended
//   trial with a declining card ─15 d─▶ renewal failed ─23 d─▶ on hold (with a card)
//   no card, no site: the tour offers itself in the trial and not once monitoring stopped.

const PRICES = {
  3: { month: { JPY: 980, USD: 700 }, year: { JPY: 9800, USD: 7000 } },
  5: { month: { JPY: 2980, USD: 2000 }, year: { JPY: 29800, USD: 20000 } },
};

const running = productAndBrowser(() => ({
  env: {
    PLAN_PRICES: JSON.stringify(PRICES),
    // A passed hold deadline is acted on soon after the clock moves.
    TRIAL_SWEEP_INTERVAL_MS: '1000',
  },
}));

const DAY = 86_400;

/** Screens load their data after they open: every check waits for it a while, not vitest's 1 s. */
const poll = <T>(read: () => T | Promise<T>, options: { timeout?: number } = {}) =>
  expect.poll(read, { timeout: 15_000, ...options });
const pageUrl = (path: string) => new URL(path, running.product.url).href;

function standInUrl(): string {
  const match = /Stripe stand-in \(billing without Stripe\): (http:\/\/127\.0\.0\.1:\d+)/.exec(
    running.product.output(),
  );
  if (!match?.[1])
    throw new Error(`the product did not start the Stripe stand-in:\n${running.product.output()}`);
  return match[1];
}

/** Moves the stand-in's one clock, as a person moving a Stripe test clock would. */
async function advanceDays(days: number) {
  const call = async (path: string, form: Record<string, string> = {}) => {
    const response = await fetch(new URL(path, standInUrl()), {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_e2e', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { id: string; frozen_time: number };
  };
  const clock = await call('/v1/test_helpers/test_clocks');
  await call(`/v1/test_helpers/test_clocks/${clock.id}/advance`, {
    frozen_time: String(clock.frozen_time + Math.round(days * DAY)),
  });
}

type Lang = 'ja' | 'en';

/** The words each check looks for, in each language (the catalogues' texts, in part). */
const WORDS = {
  ja: {
    registerCard: 'カードを登録する',
    updateCard: 'カードを更新',
    retry: 'お支払いを再処理',
    toAccount: 'ご契約内容を見る',
    undoCancel: '解約を取り消す',
    orderAgain: '再度申し込む',
    statuses: {
      trial: '無料トライアル中',
      active: 'ご契約中',
      renewalFailed: '更新に失敗しました',
      onHold: '保留中',
      ended: '解約済み',
    },
    daysLeft: '残り3日',
    onHold: 'アカウントが保留中',
    trialEnded: '無料トライアルが終了したため',
    ended: 'ご契約が終了したため',
    lockCard: 'カードを登録してサブスクリプションが再開されるまで',
    lockRenew: 'お支払いが完了していないため',
    lockEnded: 'ご契約は終了しているため、解約はできません。',
    unchanged: '現在のプランです。',
    basic25: /^ベーシック25 25サイト/,
    chargedNow: '今回のお支払い:',
    trialFree: '今は料金はかかりません。無料トライアルは',
    resumeHold: 'アカウントが保留中のため再開できません。',
    resumeTrial: '無料トライアルが終了し、すべての監視を停止しているため再開できません。',
    resumeEnded: 'サブスクリプションが終了しているため再開できません。',
    pausedByHold: 'このサイトはアカウントの保留によって停止しました。',
    heldLeft: '保留が解除されました。保留で停止した1件のサイトは停止したままです。',
    resumeAll: '保留で停止したサイトを再開(1件)',
    resumedOne: '1件のサイトの監視を再開しました。',
    tour: 'ガイドツアー',
  },
  en: {
    registerCard: 'Register a card',
    updateCard: 'Update card',
    retry: 'Retry the payment',
    toAccount: 'See your subscription',
    undoCancel: 'Undo the cancellation',
    orderAgain: 'Order again',
    statuses: {
      trial: 'Free trial',
      active: 'Active',
      renewalFailed: 'Renewal failed',
      onHold: 'On hold',
      ended: 'Cancelled',
    },
    daysLeft: '(3 days left)',
    onHold: 'Your account is on hold',
    trialEnded: 'Your free trial has ended and all monitoring has stopped.',
    ended: 'Your subscription has ended',
    lockCard: 'until a card is registered and the subscription resumes',
    lockRenew: 'Your last payment has not gone through',
    lockEnded: 'Your subscription has ended, so there is nothing to cancel.',
    unchanged: 'This is your current plan.',
    basic25: /^Basic 25 25 sites/,
    chargedNow: 'Charged now: ',
    trialFree: 'Nothing is charged now: the free trial goes on until',
    resumeHold: 'It cannot be resumed while your account is on hold',
    resumeTrial: 'It cannot be resumed: your free trial has ended',
    resumeEnded: 'It cannot be resumed: your subscription has ended.',
    pausedByHold: 'This site was paused when your account was put on hold.',
    heldLeft: 'The hold is lifted. 1 site paused by the hold is still paused.',
    resumeAll: 'Resume 1 site',
    resumedOne: '1 site is monitoring again.',
    tour: 'Guided tour',
  },
} as const;

type Account = { name: string; page: Page; siteId: string | null };
const accounts = {} as Record<'fresh' | 'carded' | 'declined' | 'touring', Account>;

type Billing = {
  status: number;
  suspend_at: string | null;
  period_end: string | null;
  cancel_at_period_end: boolean;
};

async function billingOf(account: Account): Promise<Billing> {
  const { status, body } = await apiOf(account.page.context(), running.product.url).get('/api/billing');
  expect(status).toBe(200);
  return body as Billing;
}

async function untilStatus(account: Account, status: number) {
  await poll(async () => (await billingOf(account)).status, { timeout: 30_000 }).toBe(status);
}

/** The hold reaches the sites by an event after the status changes: waits until they are paused. */
async function untilSitesPaused(account: Account) {
  await poll(
    async () => {
      const { body } = await apiOf(account.page.context(), running.product.url).get('/api/v2/targets');
      return (body as { targets: { valid: boolean }[] }).targets.map((site) => site.valid);
    },
    { timeout: 30_000 },
  ).toEqual([false]);
}

/** A date as the screens write it: the page's own Intl, the account's language and time zone. */
async function written(account: Account, iso: string, lang: Lang): Promise<string> {
  const { body } = await apiOf(account.page.context(), running.product.url).get('/api/user_info');
  const timeZone = (body as { locale: { Timezone: string } }).locale.Timezone;
  return account.page.evaluate(
    ([moment, language, zone]) =>
      new Intl.DateTimeFormat(language, {
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        ...(zone ? { timeZone: zone } : {}),
      }).format(new Date(moment as string)),
    [iso, lang, timeZone],
  );
}

/** The card form's server side, as the test card form calls it (the form itself is billing.e2e's). */
async function addCard(account: Account, testCard: string) {
  const api = apiOf(account.page.context(), running.product.url);
  const intent = await api.post('/api/billing/setup_intent', {});
  expect(intent.status).toBe(200);
  const saved = await api.post('/api/billing/card', {
    setup_intent_id: (intent.body as { setup_intent_id: string }).setup_intent_id,
    test_card: testCard,
  });
  expect(saved.status).toBe(200);
}

/** One v2 site on the product's own demo shop, so each account has a site page to look at. */
async function registerSite(account: Account): Promise<string> {
  const saved = await apiOf(account.page.context(), running.product.url).post('/api/v2/target/register', {
    label: 'Demo shop',
    url: pageUrl('/mock/ec'),
    interval_minutes: 60,
    screenshot: false,
    proxy: false,
    mail_notify: true,
    chat_notify: 'none',
    user_agent: { kind: 'chrome', value: '' },
    actions: [],
    areas: [
      {
        area_id: 'title',
        label: 'Title',
        content: 'Demo shop',
        locator: { selector: 'h1', selector_type: 'css' },
        options: {},
      },
    ],
    rules: { combine: 'and', groups: [] },
    fetch_mode: 'browser',
  });
  expect(saved.status).toBe(201);
  return (saved.body as { target_v2_id: string }).target_v2_id;
}

async function signedUp(name: string, lang: Lang): Promise<Account> {
  const page = await openPage(running.browser, lang === 'ja' ? 'ja-JP' : 'en-US', WIDE);
  await signedUpAndIn(page, running.product.url, {
    email: `${name}@example.com`,
    password: 'mimamori-pass-1',
    labels: SIGN_UP_LABELS[lang],
  });
  return { name, page, siteId: null };
}

/** The account reads its screens in `lang` from now on (its saved language wins over the browser's). */
async function readIn(account: Account, lang: Lang) {
  const saved = await apiOf(account.page.context(), running.product.url).post('/api/account/update', {
    lang,
  });
  expect(saved.status).toBe(200);
}

/** Screenshots at both widths; the narrow one may not scroll sideways. */
async function shoot(page: Page, name: string) {
  await page.setViewportSize(WIDE);
  await screenshot(page, `states-${name}-1280`);
  await page.setViewportSize(NARROW);
  // The dashboard swaps its table for cards once it hears of the resize.
  await poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expectNoSidewaysOverflow(page);
  await screenshot(page, `states-${name}-375`);
  await page.setViewportSize(WIDE);
}

async function open(page: Page, path: string, ready: Locator) {
  await page.goto(pageUrl(path));
  await poll(() => ready.count(), { timeout: 15_000 }).toBeGreaterThan(0);
}

/** What one state must show on each screen; each check reads the page in `lang`. */
type Screens = {
  dashboard: (page: Page, words: (typeof WORDS)[Lang], lang: Lang) => Promise<void>;
  account: (page: Page, words: (typeof WORDS)[Lang], lang: Lang) => Promise<void>;
  planChange: (page: Page, words: (typeof WORDS)[Lang], lang: Lang) => Promise<void>;
  cancel: (page: Page, words: (typeof WORDS)[Lang], lang: Lang) => Promise<void>;
  site: (page: Page, words: (typeof WORDS)[Lang], lang: Lang) => Promise<void>;
};

/** Each screen of the state, in Japanese and English, asserted and photographed at both widths. */
async function checkState(account: Account, state: string, screens: Screens) {
  const { page } = account;
  for (const lang of ['ja', 'en'] as const) {
    await readIn(account, lang);
    const words = WORDS[lang];
    const main = page.getByRole('heading', { level: 1 });
    await open(page, '/', main);
    await poll(() => page.locator('html').getAttribute('lang')).toBe(lang);
    await screens.dashboard(page, words, lang);
    await expectNoSeriousAxeViolations(page);
    await shoot(page, `${state}-dashboard-${lang}`);
    await open(page, '/account', page.getByTestId('account-status'));
    await screens.account(page, words, lang);
    await shoot(page, `${state}-account-${lang}`);
    await open(page, '/planchange', page.getByTestId('current-plan'));
    await screens.planChange(page, words, lang);
    await shoot(page, `${state}-planchange-${lang}`);
    await open(page, '/cancel', page.locator('main [data-testid]'));
    await screens.cancel(page, words, lang);
    await shoot(page, `${state}-cancel-${lang}`);
    if (account.siteId) {
      await open(page, `/target2?id=${account.siteId}`, page.locator('.site-actions'));
      await screens.site(page, words, lang);
      await shoot(page, `${state}-site-${lang}`);
    }
  }
}

const banner = (page: Page) => page.getByTestId('subscription-banner');

async function expectBanner(
  page: Page,
  expected: {
    state: string;
    role: 'alert' | 'status';
    contains: string[];
    link?: { name: string; href: string };
  },
) {
  await poll(() => banner(page).getAttribute('data-state'), { timeout: 15_000 }).toBe(expected.state);
  expect(await banner(page).getAttribute('role')).toBe(expected.role);
  const text = (await banner(page).textContent()) ?? '';
  for (const part of expected.contains) expect(text).toContain(part);
  if (expected.link) {
    const link = banner(page).getByRole('link', { name: expected.link.name });
    expect(await link.getAttribute('href')).toBe(expected.link.href);
  }
}

async function expectNoBanner(page: Page) {
  // The banner waits for billing's record; the list's heading is there by then.
  await poll(() => page.getByRole('heading', { level: 2 }).count()).toBeGreaterThan(0);
  await page.waitForLoadState('networkidle');
  expect(await banner(page).count()).toBe(0);
}

async function expectStatus(page: Page, text: string) {
  await poll(() => page.getByTestId('account-status').textContent()).toContain(text);
}

/** The plan form is open; unchanged it says why it cannot be sent, and a change shows its price. */
async function expectPlanForm(page: Page, words: (typeof WORDS)[Lang], price: string) {
  const form = page.getByTestId('plan-change-form');
  await poll(() => form.count()).toBe(1);
  const submit = /^(プランを変更|Change plan|注文を確定する（有料）|Place order \(paid\))$/;
  expect(await form.getByRole('button', { name: submit }).isDisabled()).toBe(true);
  expect(await page.getByTestId('plan-unchanged').textContent()).toContain(words.unchanged);
  await form.getByRole('radio', { name: words.basic25 }).check();
  await poll(() => page.getByTestId('plan-change-price').textContent(), { timeout: 15_000 }).toContain(price);
  expect(await page.getByTestId('plan-unchanged').count()).toBe(0);
}

async function expectLocked(page: Page, text: string, link?: { name: string | RegExp; href: string }) {
  await poll(() => page.getByTestId('plan-locked').textContent()).toContain(text);
  expect(await page.getByTestId('plan-change-form').count()).toBe(0);
  expect(await page.getByTestId('cancel-form').count()).toBe(0);
  if (link) {
    const found = page.getByTestId('plan-locked').getByRole('link', { name: link.name });
    expect(await found.getAttribute('href')).toBe(link.href);
  }
}

/** A held site's page: resume is disabled, and the reason is written beside it. */
async function expectResumeBlocked(page: Page, reason: string) {
  const resume = page.locator('.site-actions').getByRole('button', { name: /^(再開|Resume)$/ });
  await poll(() => resume.count(), { timeout: 15_000 }).toBe(1);
  expect(await resume.isDisabled()).toBe(true);
  expect(await page.locator('#resume-unavailable').textContent()).toContain(reason);
  expect(await resume.getAttribute('aria-describedby')).toBe('resume-unavailable');
}

async function expectMonitoring(page: Page) {
  await poll(
    () =>
      page
        .locator('.site-actions')
        .getByRole('button', { name: /^(一時停止|Pause)$/ })
        .count(),
    {
      timeout: 15_000,
    },
  ).toBe(1);
}

describe('every subscription state on every screen', () => {
  it('signs up four accounts at once: no card, a card, a declining card, and one without a site', async () => {
    const [fresh, carded, declined, touring] = await Promise.all([
      signedUp('states-fresh', 'ja'),
      signedUp('states-carded', 'en'),
      signedUp('states-declined', 'en'),
      signedUp('states-touring', 'ja'),
    ]);
    Object.assign(accounts, { fresh, carded, declined, touring });
    for (const account of [fresh, carded, declined]) account.siteId = await registerSite(account);
    await addCard(carded, 'pm_card_visa');
    await addCard(declined, 'pm_card_chargeCustomerFail');
  }, 60_000);

  it('trial without a card: the trial’s end and a card to register, on every screen', async () => {
    const account = accounts.fresh;
    const billing = await billingOf(account);
    expect(billing.status).toBe(1);
    const trialEnd = billing.suspend_at as string;
    await checkState(account, 'trial', {
      async dashboard(page, words, lang) {
        await expectBanner(page, {
          state: 'trial',
          role: 'status',
          contains: [await written(account, trialEnd, lang)],
          link: { name: words.registerCard, href: '/newcard' },
        });
      },
      async account(page, words, lang) {
        await expectStatus(page, words.statuses.trial);
        const date = await written(account, trialEnd, lang);
        expect(await page.getByTestId('account-trial-end').textContent()).toBe(date);
        expect(await page.getByTestId('account-hint').textContent()).toContain(date);
        expect(await page.getByTestId('account-lock').count()).toBe(0);
      },
      async planChange(page, words, lang) {
        await expectPlanForm(page, words, `${words.trialFree}`);
        expect(await page.getByTestId('plan-change-price').textContent()).toContain(
          await written(account, trialEnd, lang),
        );
      },
      async cancel(page) {
        await poll(() => page.getByTestId('cancel-form').count()).toBe(1);
      },
      async site(page) {
        await expectMonitoring(page);
        // Nothing stops this site yet: the trial's note is the dashboard's alone.
        expect(await banner(page).count()).toBe(0);
      },
    });
  }, 60_000);

  it('tour: offered to a new user in the trial', async () => {
    const { page } = accounts.touring;
    await page.goto(pageUrl('/'));
    await poll(() => page.locator('section.guided-tour').count(), { timeout: 15_000 }).toBe(1);
    await shoot(page, 'trial-tour-ja');
  }, 60_000);

  it('trial with a card: the trial’s end and that the card pays from then', async () => {
    const account = accounts.carded;
    const billing = await billingOf(account);
    expect(billing.status).toBe(1);
    const trialEnd = billing.suspend_at as string;
    await checkState(account, 'trial-card', {
      async dashboard(page, words, lang) {
        await expectBanner(page, {
          state: 'trial',
          role: 'status',
          contains: [await written(account, trialEnd, lang)],
          link: { name: words.toAccount, href: '/account' },
        });
        expect(await banner(page).getByRole('link', { name: words.registerCard }).count()).toBe(0);
      },
      async account(page, words, lang) {
        await expectStatus(page, words.statuses.trial);
        expect(await page.getByTestId('account-trial-end').textContent()).toBe(
          await written(account, trialEnd, lang),
        );
        expect(await page.getByTestId('account-hint').count()).toBe(0);
      },
      async planChange(page, words) {
        await expectPlanForm(page, words, words.trialFree);
      },
      async cancel(page) {
        await poll(() => page.getByTestId('cancel-form').count()).toBe(1);
      },
      async site(page) {
        await expectMonitoring(page);
        expect(await banner(page).count()).toBe(0);
      },
    });
  }, 60_000);

  it('the trial’s last 3 days without a card: a stronger banner, on the site page too', async () => {
    await advanceDays(11.5);
    const account = accounts.fresh;
    const trialEnd = (await billingOf(account)).suspend_at as string;
    await checkState(account, 'trial-last-days', {
      async dashboard(page, words, lang) {
        await expectBanner(page, {
          state: 'trial',
          role: 'alert',
          contains: [await written(account, trialEnd, lang), words.daysLeft],
          link: { name: words.registerCard, href: '/newcard' },
        });
      },
      async account(page, words) {
        await expectStatus(page, words.statuses.trial);
        expect(await page.getByTestId('account-hint').count()).toBe(1);
      },
      async planChange(page, words) {
        await expectPlanForm(page, words, words.trialFree);
      },
      async cancel(page) {
        await poll(() => page.getByTestId('cancel-form').count()).toBe(1);
      },
      async site(page, words) {
        await expectMonitoring(page);
        await expectBanner(page, { state: 'trial', role: 'alert', contains: [words.daysLeft] });
      },
    });
  }, 60_000);

  it('trial ended without a card: on hold, the delete date written, a card the only way on', async () => {
    await advanceDays(3.5);
    const account = accounts.fresh;
    await untilStatus(account, 7);
    await untilSitesPaused(account);
    const { body } = await apiOf(account.page.context(), running.product.url).get('/api/account');
    const deleteAt = (body as { delete_at: string }).delete_at;
    expect(deleteAt).toBeTruthy();
    await checkState(account, 'trial-ended', {
      async dashboard(page, words, lang) {
        await expectBanner(page, {
          state: 'trialEnded',
          role: 'alert',
          contains: [words.trialEnded, await written(account, deleteAt, lang)],
          link: { name: words.registerCard, href: '/newcard' },
        });
        // The hold, not the quota, is why the site cannot resume: beside its button and under usage.
        await poll(() => page.locator('.target-action-reason').first().textContent()).toMatch(
          /保留中|On hold/,
        );
        expect(await page.getByTestId('usage-stopped').count()).toBe(1);
        expect(await page.getByTestId('register-stopped').count()).toBe(1);
      },
      async account(page, words, lang) {
        await expectStatus(page, words.statuses.onHold);
        expect(await page.getByTestId('account-delete-at').textContent()).toBe(
          await written(account, deleteAt, lang),
        );
        expect(await page.getByTestId('account-lock').textContent()).toContain(words.lockCard);
        expect(await page.getByTestId('account-lock').textContent()).not.toContain(words.lockRenew);
      },
      async planChange(page, words) {
        await expectLocked(page, words.lockCard, { name: words.registerCard, href: '/newcard' });
      },
      async cancel(page, words, lang) {
        await expectLocked(page, words.lockCard, { name: words.registerCard, href: '/newcard' });
        // Leaving needs nothing: the delete date does it, and the screen says when.
        expect(await page.getByTestId('plan-locked').textContent()).toContain(
          await written(account, deleteAt, lang),
        );
      },
      async site(page, words) {
        await expectResumeBlocked(page, words.resumeTrial);
        await expectBanner(page, { state: 'trialEnded', role: 'alert', contains: [words.trialEnded] });
      },
    });
  }, 60_000);

  it('tour: not offered once monitoring has stopped', async () => {
    const { page } = accounts.touring;
    await untilStatus(accounts.touring, 7);
    await page.goto(pageUrl('/'));
    await poll(() => banner(page).getAttribute('data-state'), { timeout: 15_000 }).toBe('trialEnded');
    expect(await page.locator('section.guided-tour').count()).toBe(0);
    await shoot(page, 'trial-ended-tour-ja');
  }, 60_000);

  it('active: nothing to warn of, the next renewal written, the plan change priced before it is made', async () => {
    const account = accounts.carded;
    await untilStatus(account, 2);
    const billing = await billingOf(account);
    const preview = await apiOf(account.page.context(), running.product.url).post(
      '/api/billing/plan/preview',
      {
        plan: 5,
        cycle: 'month',
      },
    );
    const { amount_now: amount, currency } = preview.body as { amount_now: number; currency: string };
    expect(amount).toBeGreaterThan(0);
    expect(currency).toBe('USD');
    await checkState(account, 'active', {
      async dashboard(page) {
        await expectNoBanner(page);
        expect(await page.getByTestId('usage-stopped').count()).toBe(0);
        expect(await page.getByTestId('register-stopped').count()).toBe(0);
      },
      async account(page, words, lang) {
        await expectStatus(page, words.statuses.active);
        expect(await page.getByTestId('account-renewal').textContent()).toBe(
          await written(account, billing.period_end as string, lang),
        );
        expect(await page.getByTestId('account-lock').count()).toBe(0);
      },
      async planChange(page, words) {
        // An account that signed up in English pays in dollars: the amount the provider previews.
        await expectPlanForm(page, words, `${words.chargedNow}$${(amount / 100).toFixed(2)}`);
      },
      async cancel(page, _words, lang) {
        await poll(() => page.getByTestId('cancel-form').textContent()).toContain(
          await written(account, billing.period_end as string, lang),
        );
      },
      async site(page) {
        await expectMonitoring(page);
        expect(await banner(page).count()).toBe(0);
      },
    });
  }, 60_000);

  it('renewal failed: the hold deadline written, retry and card update offered, plan locked', async () => {
    const account = accounts.declined;
    await untilStatus(account, 6);
    const deadline = (await billingOf(account)).suspend_at as string;
    await checkState(account, 'renewal-failed', {
      async dashboard(page, words, lang) {
        await expectBanner(page, {
          state: 'renewalFailed',
          role: 'alert',
          contains: [await written(account, deadline, lang)],
          link: { name: words.updateCard, href: '/account' },
        });
        expect(await banner(page).getByRole('button', { name: words.retry }).count()).toBe(1);
      },
      async account(page, words, lang) {
        await expectStatus(page, words.statuses.renewalFailed);
        expect(await page.getByTestId('account-suspend-at').textContent()).toBe(
          await written(account, deadline, lang),
        );
        expect(await page.getByTestId('account-lock').textContent()).toContain(words.lockRenew);
        expect(await page.getByRole('button', { name: words.retry }).count()).toBe(1);
      },
      async planChange(page, words) {
        await expectLocked(page, words.lockRenew, {
          name: /^(アカウントへ|Go to your account)$/,
          href: '/account',
        });
      },
      async cancel(page, words) {
        await expectLocked(page, words.lockRenew);
      },
      async site(page, _words, lang) {
        await expectMonitoring(page);
        await expectBanner(page, {
          state: 'renewalFailed',
          role: 'alert',
          contains: [await written(account, deadline, lang)],
        });
      },
    });
  }, 60_000);

  it('cancelling: the last day written, undo offered, the cancel screen shows the booking', async () => {
    const account = accounts.carded;
    const cancelled = await apiOf(account.page.context(), running.product.url).post('/api/billing/cancel', {
      reasons: ['too_expensive'],
      comment: '',
    });
    expect(cancelled.status).toBe(200);
    const until = (await billingOf(account)).period_end as string;
    await checkState(account, 'cancelling', {
      async dashboard(page, words, lang) {
        await expectBanner(page, {
          state: 'cancelling',
          role: 'status',
          contains: [await written(account, until, lang)],
          link: { name: words.undoCancel, href: '/cancel' },
        });
      },
      async account(page, words, lang) {
        await expectStatus(page, words.statuses.active);
        expect(await page.getByTestId('account-service-until').textContent()).toBe(
          await written(account, until, lang),
        );
        expect(await page.getByTestId('account-renewal').count()).toBe(0);
      },
      async planChange(page, words) {
        await expectPlanForm(page, words, words.chargedNow);
      },
      async cancel(page, _words, lang) {
        const booked = page.getByTestId('cancel-booked');
        await poll(() => booked.textContent()).toContain(await written(account, until, lang));
        expect(await booked.getByRole('button', { name: /解約を取り消す|Undo cancellation/ }).count()).toBe(
          1,
        );
      },
      async site(page) {
        await expectMonitoring(page);
        expect(await banner(page).count()).toBe(0);
      },
    });
  }, 60_000);

  it('a lifted hold says so and resumes exactly the sites it paused, in one click', async () => {
    const account = accounts.fresh;
    await addCard(account, 'pm_card_visa');
    await untilStatus(account, 2);
    const { page } = account;
    for (const lang of ['ja', 'en'] as const) {
      await readIn(account, lang);
      const words = WORDS[lang];
      await open(page, `/target2?id=${account.siteId}`, page.locator('.site-actions'));
      await poll(() => page.locator('.site-actions').textContent()).toContain(words.pausedByHold);
      await shoot(page, `hold-lifted-site-${lang}`);
      await open(page, '/', page.getByTestId('hold-lifted-banner'));
      await poll(() => page.getByTestId('hold-lifted-banner').textContent()).toBe(
        `${words.heldLeft}${words.resumeAll}`,
      );
      await expectNoBanner(page);
      await expectNoSeriousAxeViolations(page);
      await shoot(page, `hold-lifted-dashboard-${lang}`);
    }
    await page.getByTestId('hold-lifted-banner').getByRole('button', { name: WORDS.en.resumeAll }).click();
    await poll(() => page.getByTestId('hold-lifted-banner').textContent(), { timeout: 15_000 }).toBe(
      WORDS.en.resumedOne,
    );
    await shoot(page, 'hold-lifted-resumed-en');
    const { body } = await apiOf(page.context(), running.product.url).get('/api/v2/targets');
    expect((body as { targets: { valid: boolean; paused_for_hold: boolean }[] }).targets).toMatchObject([
      { valid: true, paused_for_hold: false },
    ]);
    // Nothing is left to resume: the note goes with the next visit.
    await page.reload();
    await expectNoBanner(page);
    expect(await page.getByTestId('hold-lifted-banner').count()).toBe(0);
  }, 60_000);

  it('on hold with a card: monitoring stopped, the hold (not the quota) named where resume is refused', async () => {
    await advanceDays(8);
    const account = accounts.declined;
    await untilStatus(account, 7);
    await untilSitesPaused(account);
    await checkState(account, 'on-hold', {
      async dashboard(page, words) {
        await expectBanner(page, {
          state: 'onHold',
          role: 'alert',
          contains: [words.onHold],
          link: { name: words.updateCard, href: '/account' },
        });
        expect(await banner(page).getByRole('button', { name: words.retry }).count()).toBe(1);
        await poll(() => page.locator('.target-action-reason').first().textContent()).toMatch(
          /保留中|On hold/,
        );
        expect(await page.getByTestId('usage-stopped').count()).toBe(1);
        expect(await page.getByTestId('register-stopped').count()).toBe(1);
      },
      async account(page, words) {
        await expectStatus(page, words.statuses.onHold);
        expect(await page.getByTestId('account-lock').textContent()).toContain(words.lockRenew);
      },
      async planChange(page, words) {
        await expectLocked(page, words.lockRenew);
      },
      async cancel(page, words) {
        await expectLocked(page, words.lockRenew);
      },
      async site(page, words) {
        await expectResumeBlocked(page, words.resumeHold);
        await expectBanner(page, { state: 'onHold', role: 'alert', contains: [words.onHold] });
      },
    });
  }, 60_000);

  it('ended: the subscription is over; nothing resumes until a plan is ordered again', async () => {
    await advanceDays(22);
    const account = accounts.carded;
    // Sessions last 30 days on the product's clock, which has moved 45: the user signs in again.
    await signIn(account.page, running.product.url, {
      email: `${account.name}@example.com`,
      password: 'mimamori-pass-1',
      labels: SIGN_UP_LABELS.en,
    });
    await untilStatus(account, 9);
    await untilSitesPaused(account);
    await checkState(account, 'ended', {
      async dashboard(page, words) {
        await expectBanner(page, {
          state: 'ended',
          role: 'alert',
          contains: [words.ended],
          link: { name: words.orderAgain, href: '/planchange' },
        });
        expect(await page.getByTestId('usage-stopped').count()).toBe(1);
        expect(await page.getByTestId('register-stopped').count()).toBe(1);
      },
      async account(page, words) {
        await expectStatus(page, words.statuses.ended);
        expect(await page.getByTestId('account-lock').textContent()).toContain(words.lockEnded);
        // Stripe keeps the cancel flag on an ended subscription: nothing is booked or undoable now.
        expect(await page.getByTestId('account-status').textContent()).toBe(words.statuses.ended);
        expect(await page.getByRole('link', { name: /解約を取り消す|Undo cancellation/ }).count()).toBe(0);
        expect(await page.getByRole('button', { name: words.updateCard }).count()).toBe(0);
      },
      async planChange(page) {
        // Ordered again from here (the card on file pays the first period): the order form, confirmed.
        await poll(() => page.getByTestId('order-again').count()).toBe(1);
        expect(await page.getByTestId('plan-change-form').count()).toBe(1);
        expect(await page.getByTestId('order-confirmation').count()).toBe(1);
      },
      async cancel(page, words) {
        await expectLocked(page, words.lockEnded);
      },
      async site(page, words) {
        await expectResumeBlocked(page, words.resumeEnded);
        await expectBanner(page, { state: 'ended', role: 'alert', contains: [words.ended] });
      },
    });
    for (const { page } of Object.values(accounts)) await page.context().close();
  }, 60_000);
});
