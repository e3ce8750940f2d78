import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSite, serveFixtureSite } from '../services/crawler/test/fixture-site.ts';
import {
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

// docs/product.md#documents-and-data through the wizard: a JSON API registered end to end, and the
// areas step of each kind (PDF, JSON, RSS) in Japanese and English at both widths, with axe.
let site: FixtureSite;
let pdf: Buffer;

beforeAll(async () => {
  pdf = await readFile(new URL('../services/crawler/test/documents/ir-report-v1.pdf', import.meta.url));
  site = await serveFixtureSite((path, _incoming, response) => {
    if (path === '/products.json') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          products: [
            { name: '煎茶 100g', price: 1200 },
            { name: '玉露 50g', price: 2400 },
          ],
        }),
      );
    } else if (path === '/feed.xml') {
      response.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
      response.end(
        '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>IRニュース</title>' +
          '<item><title>決算短信を公開しました</title><link>https://example.com/ir/1</link></item></channel></rss>',
      );
    } else if (path === '/ir.pdf') {
      response.writeHead(200, { 'content-type': 'application/pdf' });
      response.end(pdf);
    } else response.writeHead(404).end();
  });
});

afterAll(async () => {
  await site?.close();
});

// The crawler refuses loopback addresses unless the test allows its fixture server.
const running = productAndBrowser(() => ({ env: { CRAWLER_ALLOW: site.authority } }));

const words = {
  ja: {
    url: 'URL',
    next: '次へ',
    areasStep: 'ステップ 3/5: 監視エリアの指定',
    notifyStep: 'ステップ 5/5: 通知設定',
    add: 'エリアを追加',
    register: '登録する',
    label: 'ラベル',
  },
  en: {
    url: 'URL',
    next: 'Next',
    areasStep: 'Step 3 of 5: Choose the areas',
    notifyStep: 'Step 5 of 5: Notification settings',
    add: 'Add an area',
    register: 'Register',
    label: 'Label',
  },
} as const;

const stepHeading = (page: Page) => page.locator('h2.step-title').textContent();
/** Reading a document is one plain HTTP request, but the crawler may be busy beside other files. */
const READING = { timeout: 30_000 };

/** From the URL step to the document's areas step, with one area written as `expression`. */
async function documentAreas(page: Page, lang: 'ja' | 'en', path: string, expression: string) {
  const said = words[lang];
  await page.goto(
    new URL(page.viewportSize()?.width === NARROW.width ? '/sr2m' : '/sr2c', running.product.url).href,
  );
  await page.getByLabel(said.url, { exact: true }).fill(`${site.origin}${path}`);
  await page.getByRole('button', { name: said.next }).click();
  await expect.poll(() => stepHeading(page), READING).toBe(said.areasStep);
  await page.getByRole('button', { name: said.add }).click();
  await page.locator('input[id$="-expression"]').fill(expression);
  await expect.poll(() => page.locator('.document-area pre').count(), READING).toBe(1);
}

async function checked(page: Page, name: string) {
  await expectNoSidewaysOverflow(page);
  await expectNoSeriousAxeViolations(page);
  await screenshot(page, name);
}

describe('documents and data in the wizard', () => {
  it('registers a JSON API by a JSONPath, refusing one that does not parse as it is typed — Japanese, 1280 px; the PDF and RSS areas at 375 px', async () => {
    const page = await openPage(running.browser, 'ja-JP', WIDE);
    await signedUpAndIn(page, running.product.url, {
      email: 'documents-ja@example.com',
      password: 'documents-pass-1',
      labels: SIGN_UP_LABELS.ja,
    });
    await page.goto(new URL('/sr2c', running.product.url).href);
    await page.getByLabel('URL', { exact: true }).fill(`${site.origin}/products.json`);
    await page.getByRole('button', { name: '次へ' }).click();
    await expect.poll(() => stepHeading(page), READING).toBe('ステップ 3/5: 監視エリアの指定');
    // What the URL serves is detected and the preview pane shows its text.
    expect(await page.getByText('URLの内容: JSON').count()).toBe(1);
    expect(await page.locator('.document-preview pre').textContent()).toContain('"price": 2400');
    await page.getByRole('button', { name: 'エリアを追加' }).click();
    const expression = page.getByLabel('JSONPath', { exact: true });
    await expression.fill('$.products[');
    await expect
      .poll(() => page.locator('.field-error').textContent())
      .toBe('「エリア 1」の JSONPath「$.products[」を解釈できません。$ で始まる式を入力してください。');
    expect(await expression.getAttribute('aria-invalid')).toBe('true');
    await expression.fill('$.products[*].price');
    await expect.poll(() => page.locator('.document-area pre').textContent(), READING).toBe('1200\n2400');
    await page.getByLabel('エリア名').fill('価格');
    await checked(page, 'wizard-document-json-1280-ja');
    await page.getByRole('button', { name: '次へ' }).click();
    await expect.poll(() => stepHeading(page)).toBe('ステップ 4/5: エリア内容の確認');
    // The same exclusions as a page's area, read from the document as checks will compare it.
    const compared = page.getByLabel('比較される内容 (オプション適用後)');
    await expect.poll(() => compared.inputValue(), READING).toBe('1200\n2400');
    await page.getByLabel('除外する語句').fill('2400');
    await expect.poll(() => compared.inputValue(), READING).toBe('1200');
    await page.getByLabel('除外する語句').fill('');
    await page.getByRole('button', { name: '次へ' }).click();
    await expect.poll(() => stepHeading(page)).toBe('ステップ 5/5: 通知設定');
    await page.getByLabel('ラベル', { exact: true }).fill('商品 API');
    await page.getByRole('button', { name: '登録する' }).click();
    await page.waitForURL((url) => url.pathname === '/target2', READING);
    const id = new URL(page.url()).searchParams.get('id') ?? '';
    const stored = (await page.evaluate(
      async (url) => (await fetch(url)).json(),
      `/api/v2/target?id=${id}`,
    )) as { settings: { content_kind: string; fetch_mode: string; areas: unknown[] } };
    expect(stored.settings).toMatchObject({
      content_kind: 'json',
      fetch_mode: 'http',
      areas: [
        {
          label: '価格',
          content: '1200\n2400',
          locator: { selector: '$.products[*].price', selector_type: 'jsonpath' },
        },
      ],
    });

    await page.setViewportSize(NARROW);
    await documentAreas(page, 'ja', '/ir.pdf', '2');
    await expect
      .poll(() => page.locator('.document-area pre').textContent(), READING)
      .toContain('売上高は前年同期比12%増');
    await checked(page, 'wizard-document-pdf-375-ja');
    await documentAreas(page, 'ja', '/feed.xml', '//item/title');
    await expect
      .poll(() => page.locator('.document-area pre').textContent(), READING)
      .toBe('決算短信を公開しました');
    await checked(page, 'wizard-document-rss-375-ja');
    await page.context().close();
  });

  it('shows the areas step of a PDF, JSON and RSS target — English, 1280 and 375 px', async () => {
    const page = await openPage(running.browser, 'en-US', WIDE);
    await signedUpAndIn(page, running.product.url, {
      email: 'documents-en@example.com',
      password: 'documents-pass-1',
      labels: SIGN_UP_LABELS.en,
    });
    await documentAreas(page, 'en', '/ir.pdf', '1');
    expect(await page.getByText('The URL serves: PDF').count()).toBe(1);
    await checked(page, 'wizard-document-pdf-1280-en');
    await documentAreas(page, 'en', '/feed.xml', '//item/title');
    await checked(page, 'wizard-document-rss-1280-en');
    await page.setViewportSize(NARROW);
    await documentAreas(page, 'en', '/products.json', '$.products[0].name');
    await expect.poll(() => page.locator('.document-area pre').textContent(), READING).toBe('煎茶 100g');
    await checked(page, 'wizard-document-json-375-en');
    await page.context().close();
  });
});
