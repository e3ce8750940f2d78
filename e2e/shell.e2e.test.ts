import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './chromium.ts';
import { type RunningProduct, startProduct } from './product.ts';
import { screenshot, WIDE } from './steps.ts';

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
    const registration = page.getByRole('navigation').getByRole('link', { name: 'サイト登録' });
    await expect.poll(() => registration.getAttribute('href')).toBe('/sr2m');
    // A signed-out visitor has nothing to log out of.
    expect(await page.getByRole('button', { name: 'ログアウト' }).count()).toBe(0);

    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => registration.getAttribute('href')).toBe('/sr2c');
    await page.setViewportSize({ width: 767, height: 800 });
    await expect.poll(() => registration.getAttribute('href')).toBe('/sr2m');
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
