import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceSiteRegistration } from '../system-tests/rig/price-site.ts';
import {
  type Api,
  apiOf,
  expectNoSeriousAxeViolations,
  expectNoSidewaysOverflow,
  NARROW,
  productAndBrowser,
  SIGN_UP_LABELS,
  shots,
  signedUpAndIn,
  WIDE,
} from './steps.ts';

// docs/product.md#edit-conflicts in the browser: two tabs of one browser edit one site, then the
// account settings. The first save stands; the second gets the conflict screen naming what changed,
// loading the saved version shows the first tab's value, and the second tab's input can be put back.
let server: Server;
let host = '';
const running = productAndBrowser(() => ({ env: { CRAWLER_ALLOW: host } }));
let context: BrowserContext;
let api: Api;
let siteId = '';

const WORDS = {
  ja: {
    label: 'ラベル',
    update: '更新する',
    name: '名前',
    save: '保存',
    title: '別の画面で保存された変更があります',
    field: 'ラベル',
    nameField: '名前',
    reload: '保存された内容を読み込む',
    reapply: '自分の入力を戻す',
    quietSave: '保存',
  },
  en: {
    label: 'Label',
    update: 'Update',
    name: 'Name',
    save: 'Save',
    title: 'Changed elsewhere',
    field: 'Label',
    nameField: 'Name',
    reload: 'Load the saved version',
    reapply: 'Put my input back',
    quietSave: 'Save',
  },
} as const;

beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Sale</title><h1>Sale</h1><p id="price">¥1,200</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await context?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

const pageUrl = (path: string) => new URL(path, running.product.url).href;

async function setLanguage(lang: 'ja' | 'en') {
  const { user_id } = (await api.get('/api/user_info')).body as { user_id: string };
  expect((await api.post('/api/account/update', { user_id, lang })).status).toBe(200);
}

/** Both tabs at one width; the second is the one whose save comes too late. */
async function twoTabs(viewport: { width: number; height: number }): Promise<[Page, Page]> {
  const tabs = [await context.newPage(), await context.newPage()] as [Page, Page];
  for (const tab of tabs) await tab.setViewportSize(viewport);
  return tabs;
}

async function shoot(page: Page, name: string) {
  await page.locator('.edit-conflict').scrollIntoViewIfNeeded();
  // The window as the person sees it, the notice in view (SHOTS_DIR collects them for a review).
  const folder = process.env.SHOTS_DIR ?? shots;
  await mkdir(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`) });
}

describe('two tabs editing one thing', () => {
  it('signs up and registers a site', async () => {
    context = await running.browser.newContext({ locale: 'ja-JP', viewport: WIDE });
    // A person who has skipped the guided tour: its highlight would frame the screens shot here.
    await context.addInitScript(() => localStorage.setItem('mimamori.tour', 'dismissed'));
    const page = await context.newPage();
    await signedUpAndIn(page, running.product.url, {
      email: 'conflicts@example.com',
      password: 'mimamori-conflicts-1',
      labels: SIGN_UP_LABELS.ja,
    });
    await page.close();
    api = apiOf(context, running.product.url);
    const saved = await api.post('/api/v2/target/register', {
      ...priceSiteRegistration('Autumn sale', `http://${host}/`),
      interval_minutes: 60,
      screenshot: false,
    });
    expect(saved.status).toBe(201);
    siteId = (saved.body as { target_v2_id: string }).target_v2_id;
  }, 120_000);

  for (const [lang, viewport] of [
    ['ja', WIDE],
    ['ja', NARROW],
    ['en', WIDE],
    ['en', NARROW],
  ] as const) {
    const width = viewport.width;
    const words = WORDS[lang];

    it(`site: the later save gets the conflict screen and keeps its input — ${lang} ${width}`, async () => {
      await setLanguage(lang);
      const [a, b] = await twoTabs(viewport);
      const wizard = width === WIDE.width ? '/sr2c' : '/sr2m';
      for (const tab of [a, b]) {
        await tab.goto(pageUrl(`${wizard}?id=${siteId}&step=notify`));
        await expect.poll(() => tab.getByLabel(words.label, { exact: true }).inputValue()).not.toBe('');
      }
      const labelA = `A ${lang} ${width}`;
      const labelB = `B ${lang} ${width}`;
      await a.getByLabel(words.label, { exact: true }).fill(labelA);
      await a.getByRole('button', { name: words.update }).click();
      await a.waitForURL((url) => url.pathname === '/target2');
      // The detail page shows the saved label at once, without a reload.
      await expect.poll(() => a.getByRole('heading', { level: 2, name: labelA }).count()).toBe(1);

      await b.getByLabel(words.label, { exact: true }).fill(labelB);
      await b.getByRole('button', { name: words.update }).click();
      const notice = b.getByRole('alert').filter({ has: b.getByRole('heading', { name: words.title }) });
      await expect.poll(() => notice.count()).toBe(1);
      const row = notice.locator('tr[data-field="label"]');
      expect(await row.locator('th').textContent()).toBe(words.field);
      expect(await row.getByTestId('conflict-saved').textContent()).toBe(labelA);
      expect(await row.getByTestId('conflict-yours').textContent()).toBe(labelB);
      // Only the label changed elsewhere: nothing else is named.
      expect(await notice.locator('tbody tr').count()).toBe(1);
      expect(new URL(b.url()).pathname).toBe(wizard);
      await expectNoSidewaysOverflow(b);
      await expectNoSeriousAxeViolations(b);
      await shoot(b, `34-conflict-site-${lang}-${width}`);

      await notice.getByRole('button', { name: words.reload }).click();
      await expect.poll(() => b.getByLabel(words.label, { exact: true }).inputValue()).toBe(labelA);
      expect(await row.getByTestId('conflict-yours').textContent()).toBe(labelB);
      await notice.getByRole('button', { name: words.reapply }).click();
      expect(await b.getByLabel(words.label, { exact: true }).inputValue()).toBe(labelB);
      await b.getByRole('button', { name: words.update }).click();
      await b.waitForURL((url) => url.pathname === '/target2');
      await expect.poll(() => b.getByRole('heading', { level: 2, name: labelB }).count()).toBe(1);
      await a.close();
      await b.close();
    }, 60_000);

    it(`account: the later save gets the conflict screen and keeps its input — ${lang} ${width}`, async () => {
      const [a, b] = await twoTabs(viewport);
      for (const tab of [a, b]) {
        await tab.goto(pageUrl('/account'));
        await expect.poll(() => tab.getByLabel(words.name, { exact: true }).count()).toBe(1);
      }
      const form = (tab: Page) => tab.locator('form', { has: tab.locator('#account-name') });
      const nameA = `A ${lang} ${width}`;
      const nameB = `B ${lang} ${width}`;
      await a.getByLabel(words.name, { exact: true }).fill(nameA);
      await form(a).getByRole('button', { name: words.save }).click();
      await expect.poll(() => form(a).getByRole('status').count()).toBe(1);

      await b.getByLabel(words.name, { exact: true }).fill(nameB);
      await form(b).getByRole('button', { name: words.save }).click();
      const notice = b.getByRole('alert').filter({ has: b.getByRole('heading', { name: words.title }) });
      await expect.poll(() => notice.count()).toBe(1);
      const row = notice.locator('tr[data-field="name"]');
      expect(await row.locator('th').textContent()).toBe(words.nameField);
      expect(await row.getByTestId('conflict-saved').textContent()).toBe(nameA);
      expect(await row.getByTestId('conflict-yours').textContent()).toBe(nameB);
      await expectNoSidewaysOverflow(b);
      await expectNoSeriousAxeViolations(b);
      await shoot(b, `34-conflict-account-${lang}-${width}`);

      await notice.getByRole('button', { name: words.reload }).click();
      await expect.poll(() => b.getByLabel(words.name, { exact: true }).inputValue()).toBe(nameA);
      await notice.getByRole('button', { name: words.reapply }).click();
      expect(await b.getByLabel(words.name, { exact: true }).inputValue()).toBe(nameB);
      await form(b).getByRole('button', { name: words.save }).click();
      await expect
        .poll(async () => ((await api.get('/api/account')).body as { name: string }).name)
        .toBe(nameB);
      // Another form of the same page started from the revision before that save: it follows its
      // own tab's save and is no conflict.
      const quietForm = b.locator('form', { has: b.locator('#quiet-from') });
      await b.locator('#quiet-from').fill(width === WIDE.width ? '22:00' : '21:30');
      await b.locator('#quiet-until').fill('07:00');
      await quietForm.getByRole('button', { name: words.quietSave }).click();
      await expect.poll(() => quietForm.getByRole('status').count()).toBe(1);
      expect(await quietForm.getByRole('alert').count()).toBe(0);
      await a.close();
      await b.close();
    }, 60_000);
  }
});
