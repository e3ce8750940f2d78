import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, type ExpectStatic, expect as fileExpect } from 'vitest';
import { seriousAxeViolations } from './axe.ts';
import { launchChromium } from './chromium.ts';
import { linkFromMailbox } from './mailbox.ts';
import { type RunningProduct, repoRoot, type StartProductOptions, startProduct } from './product.ts';

// The steps every e2e file takes through the product's screens, so a change in sign-up or in what
// "a finished screen" means is made once. Each takes `expect` last where a file runs tests
// concurrently and needs its test's own `expect`.

/**
 * Starts the product and Chromium before the file's tests and stops both after them. `options`
 * is read when the product starts, so it may use what an earlier beforeAll set up (a test page).
 */
export function productAndBrowser(options: () => StartProductOptions = () => ({})): {
  product: RunningProduct;
  browser: Browser;
} {
  const running = {} as { product: RunningProduct; browser: Browser };
  beforeAll(async () => {
    [running.product, running.browser] = await Promise.all([startProduct(options()), launchChromium()]);
  });
  afterAll(async () => {
    await running.browser?.close();
    await running.product?.stop();
  });
  return running;
}

/** The two widths each screen is tried at: the wide layout and a phone (narrow is under 768 px, docs/product.md#screens). */
export const WIDE = { width: 1280, height: 800 };
export const NARROW = { width: 375, height: 740 };

/** Where screenshots (and a failed run's product log) are kept for reading. */
export const shots = join(repoRoot, 'test-results');

/** A fresh browser context (its own cookies) at a locale and window size, with one page. */
export async function openPage(
  browser: Browser,
  locale: string,
  viewport: { width: number; height: number },
): Promise<Page> {
  return (await browser.newContext({ locale, viewport })).newPage();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(shots, { recursive: true });
  const take = () => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
  try {
    await take();
  } catch (error) {
    // Chromium now and then gives no frame for a full-page capture on a loaded machine ("Unable to
    // capture screenshot", once in a CI run of the loaded page of a chat stand-in); the page is as
    // it was, so a second capture is taken. Any other failure, or a second one, fails the test.
    if (!String((error as Error).message).includes('Unable to capture screenshot')) throw error;
    await take();
  }
}

/** The page may not scroll sideways: nothing is wider than the window. */
export async function expectNoSidewaysOverflow(page: Page, expect: ExpectStatic = fileExpect): Promise<void> {
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(widths[0]).toBeLessThanOrEqual(widths[1] ?? 0);
}

/** axe-core finds nothing serious or critical; a failure names the rule and the elements. */
export async function expectNoSeriousAxeViolations(
  page: Page,
  expect: ExpectStatic = fileExpect,
): Promise<void> {
  const violations = await seriousAxeViolations(page);
  expect(
    violations.map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    ),
  ).toEqual([]);
}

/** What the sign-up, verify and sign-in screens say, in the language the test reads them in. */
export type SignUpLabels = {
  email: string;
  password: string;
  /** The plan's radio button; the plan sign-up offers by default when absent. */
  plan?: string;
  agree: string;
  submit: string;
  /** The heading shown once the verify mail is on its way. */
  mailSent: string;
  /** The status the verify link shows. */
  verified: string;
  signIn: string;
};

/**
 * What the screens say in each language, with the plan sign-up offers by default (Basic 5); a
 * test that signs up on another plan spreads these with its own `plan`.
 */
export const SIGN_UP_LABELS: Record<'ja' | 'en', SignUpLabels> = {
  ja: {
    email: 'メールアドレス',
    password: 'パスワード',
    plan: 'ベーシック5 5サイト',
    agree: '利用規約に同意する',
    submit: '無料で登録する',
    mailSent: 'メールを確認してください',
    verified: 'メールアドレスを確認しました。',
    signIn: 'ログイン',
  },
  en: {
    email: 'E-mail address',
    password: 'Password',
    plan: 'Basic 5 5 sites',
    agree: 'I agree to the terms of service',
    submit: 'Sign up for free',
    mailSent: 'Check your mail',
    verified: 'Your e-mail address has been verified.',
    signIn: 'Sign in',
  },
};

/**
 * Ticks the terms box. The plan table above it may still grow (its prices load after the page) and
 * move the box between Playwright's aim and its click on a loaded machine; the click is then made
 * again, twice at most.
 */
async function agreeToTerms(box: Locator): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await box.check({ timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** Signs up through the screen and opens the verify link from the product's mailbox. */
export async function signUpAndVerify(
  page: Page,
  productUrl: URL,
  account: { email: string; password: string; labels: SignUpLabels },
  expect: ExpectStatic = fileExpect,
): Promise<void> {
  const { email, password, labels } = account;
  await page.goto(new URL('/signup', productUrl).href);
  await page.getByLabel(labels.email).fill(email);
  await page.getByLabel(labels.password, { exact: true }).fill(password);
  if (labels.plan) await page.getByRole('radio', { name: labels.plan }).check();
  await agreeToTerms(page.getByRole('checkbox', { name: labels.agree }));
  await page.getByRole('button', { name: labels.submit }).click();
  // A file's first sign-up is its product's first hashed password and first loads of the account
  // screens' code: in CI, beside two other files, it once outlasted the default 10 s.
  await expect
    .poll(() => page.getByRole('heading', { name: labels.mailSent }).count(), { timeout: 30_000 })
    .toBe(1);
  await page.goto(new URL(await linkFromMailbox(productUrl, email, '/verify'), productUrl).href);
  await expect.poll(() => page.getByRole('status').textContent()).toBe(labels.verified);
}

/** Signs in through the screen; the dashboard opens. `beforeSubmit` sees the filled-in form. */
export async function signIn(
  page: Page,
  productUrl: URL,
  account: { email: string; password: string; labels: SignUpLabels },
  beforeSubmit: () => Promise<void> = async () => undefined,
): Promise<void> {
  const { email, password, labels } = account;
  await page.goto(new URL('/signin', productUrl).href);
  await page.getByLabel(labels.email).fill(email);
  await page.getByLabel(labels.password).fill(password);
  await beforeSubmit();
  await page.getByRole('button', { name: labels.signIn, exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/**
 * A new user has chosen no time zone, so the dashboard asks for one (docs/product.md#time-zones):
 * takes the zone it suggests from the browser and answers which it was.
 */
export async function chooseSuggestedTimezone(
  page: Page,
  expect: ExpectStatic = fileExpect,
): Promise<string> {
  const picker = page.getByRole('dialog', { name: /^(タイムゾーンを選んでください|Choose your time zone)$/ });
  await expect.poll(() => picker.count(), { timeout: 15_000 }).toBe(1);
  const select = picker.getByRole('combobox');
  await expect.poll(() => select.locator('option').count(), { timeout: 15_000 }).toBeGreaterThan(100);
  const zone = await select.inputValue();
  await picker.getByRole('button', { name: /^(保存|Save)$/ }).click();
  await expect.poll(() => picker.count(), { timeout: 15_000 }).toBe(0);
  return zone;
}

/** A new user through sign-up, the mailbox link, sign-in and the time-zone question, left on the dashboard. */
export async function signedUpAndIn(
  page: Page,
  productUrl: URL,
  account: { email: string; password: string; labels: SignUpLabels },
): Promise<void> {
  await signUpAndVerify(page, productUrl, account);
  await signIn(page, productUrl, account);
  await chooseSuggestedTimezone(page);
}

/** The gateway's API as the SPA calls it: the context's cookies, the CSRF cookie echoed in a header. */
export type Api = {
  get: (path: string) => Promise<{ status: number; body: unknown }>;
  post: (path: string, body: unknown) => Promise<{ status: number; body: unknown }>;
};

export function apiOf(context: BrowserContext, productUrl: URL): Api {
  const answer = async (response: Awaited<ReturnType<BrowserContext['request']['get']>>) => ({
    status: response.status(),
    body: await response.json().catch(() => undefined),
  });
  return {
    get: async (path) => answer(await context.request.get(new URL(path, productUrl).href)),
    async post(path, body) {
      const csrf = (await context.cookies(productUrl.href)).find((cookie) => cookie.name === 'csrf_token');
      return answer(
        await context.request.post(new URL(path, productUrl).href, {
          data: body,
          headers: csrf ? { 'x-csrf-token': csrf.value } : {},
        }),
      );
    },
  };
}

/**
 * Below 768 px the top navigation folds behind a menu button (docs/product.md#screens): opens it
 * when it is there and closed, so a test reaches the navigation's links at either width.
 */
export async function openNavigation(page: Page): Promise<void> {
  const menu = page.getByRole('button', { name: /^(メニュー|Menu)$/ });
  if ((await menu.count()) === 1 && (await menu.getAttribute('aria-expanded')) === 'false') {
    await menu.click();
  }
}
