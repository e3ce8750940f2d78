import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './chromium.ts';
import { type RunningProduct, startProduct } from './product.ts';
import {
  expectNoSeriousAxeViolations,
  expectNoSidewaysOverflow,
  NARROW,
  openNavigation,
  screenshot,
  WIDE,
} from './steps.ts';

let product: RunningProduct;
let browser: Browser;

beforeAll(async () => {
  product = await startProduct();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

async function openPage(options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({
    locale: 'ja-JP',
    viewport: WIDE,
    ...options,
  });
  return context.newPage();
}

const pageUrl = (path: string) => new URL(path, product.url).href;

describe('the SPA shell served by the product', () => {
  it('answers /healthz with 200', async () => {
    const response = await fetch(pageUrl('/healthz'));
    expect(response.status).toBe(200);
  });

  it('answers /api/user_info for a signed-out visitor with 401 and the JSON error shape', async () => {
    const response = await fetch(pageUrl('/api/user_info'));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: { code: 'unauthenticated', message_key: 'errors.unauthenticated' },
    });
  });

  it('sends a signed-out visitor of /account to sign-in with the path in next, in Japanese', async () => {
    const page = await openPage();
    await page.goto(pageUrl('/account'));
    await page.waitForURL((url) => url.pathname === '/signin');
    expect(new URL(page.url()).search).toBe('?next=%2Faccount');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('ログイン');
    expect(await page.getAttribute('html', 'lang')).toBe('ja');
    expect(await page.title()).toBe('ログイン | Mimamori');
    // The sign-in screen shows no top navigation.
    expect(await page.getByRole('navigation').count()).toBe(0);

    await screenshot(page, 'shell-signin');
    await page.context().close();
  });

  it('keeps the query of a login-required route in next', async () => {
    const page = await openPage();
    await page.goto(pageUrl('/target2?id=42'));
    await page.waitForURL((url) => url.pathname === '/signin');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/target2?id=42');
    await page.context().close();
  });

  it('switches to English from the footer and remembers the choice', async () => {
    const page = await openPage();
    await page.goto(pageUrl('/signin'));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('ログイン');

    await page.getByRole('button', { name: 'English' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.getByRole('button', { name: 'English' }).getAttribute('aria-pressed')).toBe('true');

    await page.reload();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in');
    await page.context().close();
  });

  it('greets a browser set to English in English', async () => {
    const page = await openPage({ locale: 'en-US' });
    await page.goto(pageUrl('/signup'));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign up');
    await page.context().close();
  });

  it('links site registration to /sr2m on a narrow window and /sr2c on a wide one', async () => {
    const page = await openPage({ viewport: { width: 375, height: 740 } });
    // A public screen that keeps the top navigation (the demo shop and the sign-in screens hide it).
    await page.goto(pageUrl('/no/such/screen'));
    // On a phone the links fold behind the menu button, which keeps the bar one row high.
    const menu = page.getByRole('button', { name: 'メニュー' });
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('navigation').count()).toBe(0);
    const bar = await page.locator('.top-nav').boundingBox();
    expect(bar?.height).toBeLessThan(64);
    await screenshot(page, 'shell-menu-closed-narrow-ja');
    await openNavigation(page);
    expect(await page.getByRole('button', { name: '閉じる' }).getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'shell-menu-open-narrow-ja');
    const registration = page.getByRole('navigation').getByRole('link', { name: 'サイト登録' });
    await expect.poll(() => registration.getAttribute('href')).toBe('/sr2m');
    // A signed-out visitor has nothing to log out of, and is offered to sign in instead.
    expect(await page.getByRole('button', { name: 'ログアウト' }).count()).toBe(0);
    expect(await page.getByRole('navigation').getByRole('link', { name: 'ログイン' }).count()).toBe(1);
    await expectNoSeriousAxeViolations(page);
    // Escape closes the menu again.
    await registration.focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('navigation').count()).toBe(0);
    await openNavigation(page);

    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => registration.getAttribute('href')).toBe('/sr2c');
    await page.setViewportSize({ width: 767, height: 800 });
    // Crossing into the narrow layout folds the links away again.
    await expect.poll(() => page.getByRole('navigation').count()).toBe(0);
    await openNavigation(page);
    await expect.poll(() => registration.getAttribute('href')).toBe('/sr2m');
    await page.context().close();
  });

  it.for([
    { locale: 'ja-JP', viewport: WIDE, name: 'wide-ja', start: '2週間無料で試す', plan: 'ベーシック25' },
    { locale: 'en-US', viewport: WIDE, name: 'wide-en', start: 'Try it free for 2 weeks', plan: 'Basic 25' },
    { locale: 'ja-JP', viewport: NARROW, name: 'narrow-ja', start: '2週間無料で試す', plan: 'ベーシック25' },
    {
      locale: 'en-US',
      viewport: NARROW,
      name: 'narrow-en',
      start: 'Try it free for 2 weeks',
      plan: 'Basic 25',
    },
  ])('shows a signed-out visitor of / the landing page, its plans and the trial — $name', async (run) => {
    const page = await openPage({ locale: run.locale, viewport: run.viewport });
    await page.goto(pageUrl('/'));
    expect(new URL(page.url()).pathname).toBe('/');
    const start = page.getByRole('link', { name: run.start });
    await expect.poll(() => start.count()).toBe(2);
    expect(await start.first().getAttribute('href')).toBe('/signup');
    // Every trial plan, from the catalogue, each leading to sign-up with itself chosen.
    const plans = page.getByRole('table');
    expect(await plans.getByRole('rowheader').count()).toBe(9);
    const plan = plans
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: run.plan, exact: true }) });
    expect(await plan.getByRole('link').getAttribute('href')).toBe('/signup?plan=5');
    // Its monthly price from the public plans endpoint, in the visitor's currency.
    const currency = run.locale.startsWith('ja') ? '¥' : '$';
    await expect.poll(() => page.getByTestId('landing-price-5').textContent()).toContain(currency);
    // The tour belongs to a signed-in user's dashboard, not to the landing page.
    expect(await page.locator('#guided-tour-title').count()).toBe(0);
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, `landing-${run.name}`);

    await plan.getByRole('link').click();
    await page.waitForURL((url) => url.pathname === '/signup');
    await expect.poll(() => page.locator('input[name="plan"][value="5"]').isChecked()).toBe(true);
    await page.context().close();
  });

  it('asks nothing of signed-in endpoints on signed-out pages, so the console stays clean', async () => {
    const page = await openPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    for (const path of [
      '/',
      '/signin',
      '/signup',
      '/reset_pass',
      '/linecomplete',
      '/req_support',
      '/mock/ec',
    ]) {
      await page.goto(pageUrl(path));
      await expect.poll(() => page.getByRole('heading', { level: 1 }).count()).toBe(1);
    }
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('shows a page-not-found screen for an unknown path', async () => {
    const page = await openPage();
    await page.goto(pageUrl('/no/such/screen'));
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('ページが見つかりません');
    await page.context().close();
  });

  it('offers a reload when a screen chunk cannot be loaded', async () => {
    const page = await openPage();
    await page.route(/\/assets\/signup-page-[^/]+\.js$/, (route) => route.abort('connectionfailed'));
    await page.goto(pageUrl('/signup'));
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('画面の読み込みに失敗しました');
    expect(await alert.getByRole('button', { name: '再読み込み' }).count()).toBe(1);
    await page.context().close();
  });

  it('exits with code 0 on SIGTERM', async () => {
    await browser.close();
    expect(await product.stop()).toBe(0);
  });
});
