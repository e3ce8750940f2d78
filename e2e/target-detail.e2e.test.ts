import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceSiteRegistration } from '../system-tests/rig/price-site.ts';
import { launchChromium } from './chromium.ts';
import { type RunningProduct, repoRoot, startProduct } from './product.ts';
import {
  apiOf,
  expectNoSeriousAxeViolations,
  expectNoSidewaysOverflow,
  NARROW,
  SIGN_UP_LABELS,
  screenshot,
  shots,
  signedUpAndIn,
  WIDE,
} from './steps.ts';

// The scheduler checks each 1-minute site once a minute of the product's time (2 s under the
// tests' time scale), so a change shows as an update within two of them; the deadlines are
// generous for a busy machine taking screenshots, not timing claims.
const CHECK_WAIT_MS = 60_000;
// Six checks of one site at one a minute, counted from when it was registered.
const PAGING_WAIT_MS = 60_000;
const EMAIL = 'detail@example.com';
const PASSWORD = 'mimamori-detail-1';

let product: RunningProduct;
let browser: Browser;
let shop: ShopPage;
let context: BrowserContext;
const sites = { sale: '', gone: '', v1: '' };

/** A shop page on loopback whose price the test changes, and a page that is gone (404). */
type ShopPage = {
  host: string;
  url: (path: string) => string;
  setPrice: (price: string) => void;
  server: Server;
};

async function startShopPage(): Promise<ShopPage> {
  let price = '¥1,200';
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://shop').pathname;
    if (path !== '/sale' && path !== '/whole') {
      response.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Not found</h1>');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(
      '<!doctype html><html><head><title>Sale</title></head><body style="background:#fff">' +
        `<h1>Sale</h1><p id="note">Autumn sale</p><p id="price" style="font-size:48px;color:#c00">${price}</p></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    setPrice: (next) => {
      price = next;
    },
    server,
  };
}

beforeAll(async () => {
  shop = await startShopPage();
  [product, browser] = await Promise.all([
    startProduct({ env: { CRAWLER_ALLOW: shop.host } }),
    launchChromium(),
  ]);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  // What the product printed stays beside the screenshots, for reading a failed run.
  if (product) {
    await mkdir(shots, { recursive: true });
    await writeFile(join(shots, 'site-detail-product.log'), product.output());
  }
  await product?.stop();
  await new Promise<void>((resolve) => {
    shop?.server.closeAllConnections();
    shop ? shop.server.close(() => resolve()) : resolve();
  });
});

const pageUrl = (path: string) => new URL(path, product.url).href;
const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

/**
 * Calls the gateway with the signed-in browser's own session, as the SPA would. A 503 (a service
 * call past its deadline while the one-process product is busy taking screenshots) is asked again,
 * as the SPA's own queries do.
 */
async function api<T>(path: string, body?: unknown): Promise<T> {
  const gateway = apiOf(context, product.url);
  for (let attempt = 1; ; attempt++) {
    const answer = body === undefined ? await gateway.get(path) : await gateway.post(path, body);
    if (answer.status === 503 && attempt < 5) {
      await sleep(2_000);
      continue;
    }
    expect(answer.status, `${path}: ${answer.status} ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    return answer.body as T;
  }
}

type HistoryAnswer = {
  entries: {
    outcome: string;
    error: { code: string } | null;
    update: { screenshots: { after: string | null } } | null;
  }[];
};

async function waitForHistory(id: string, filter: string, what: string): Promise<void> {
  const deadline = Date.now() + CHECK_WAIT_MS;
  while (Date.now() < deadline) {
    const { entries } = await api<HistoryAnswer>(`/api/v2/history?id=${id}&filter=${filter}`);
    if (entries.length > 0) return;
    await sleep(2_000);
  }
  throw new Error(`${what}: not within ${CHECK_WAIT_MS / 1000} s\n${product.output().slice(-3_000)}`);
}

/** The shop's price, checked every minute in the browser with pictures; an update needs "sale". */
function saleSite(label: string, path: string) {
  return {
    ...priceSiteRegistration(label, shop.url(path)),
    mail_notify: false,
    chat_notify: 'none',
    rules: {
      combine: 'or',
      groups: [
        {
          combine: 'and',
          conditions: [{ areaId: 'price', operand: 'new', operator: 'keyword', value: 'sale' }],
        },
      ],
    },
  };
}

async function setLanguage(lang: 'ja' | 'en') {
  const { user_id } = await api<{ user_id: string }>('/api/user_info');
  await api('/api/account/update', { user_id, lang });
}

/** Every picture on the page has arrived and decoded (an error page would have no width). */
async function expectImagesLoaded(page: Page, selector: string, count: number) {
  const images = page.locator(selector);
  await expect.poll(() => images.count()).toBeGreaterThanOrEqual(count);
  for (const image of await images.all()) {
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
  }
}

type Words = {
  title: string;
  monitoring: string;
  paused: string;
  interval: string;
  update: string;
  error: string;
  inline: string;
  side: string;
  filterError: string;
  filterAll: string;
  oneDay: string;
  allDays: string;
  date: string;
  emptyDay: string;
  notFound: string;
  registration: string;
  beforeAlt: RegExp;
  editSettings: string;
  redo: string;
  matched: string;
};

const WORDS: Record<'ja' | 'en', Words> = {
  ja: {
    title: 'サイトの詳細',
    monitoring: '監視中',
    paused: '一時停止中',
    interval: '1 分ごと',
    update: '更新',
    error: 'エラー',
    inline: 'インライン',
    side: '左右に並べる',
    filterError: 'エラー',
    filterAll: 'すべて',
    oneDay: '1日のみ',
    allDays: 'すべての日',
    date: '日付',
    emptyDay: 'この日の記録はありません。',
    notFound: 'URL にアクセスできませんでした (404)。',
    registration: '登録時のデータ',
    beforeAlt: /の更新の前の画面/,
    editSettings: '設定を編集',
    redo: '登録をやり直す',
    matched: 'グループ 1 の条件 1: Price の追加部分が「sale」を含む',
  },
  en: {
    title: 'Site details',
    monitoring: 'Monitoring',
    paused: 'Paused',
    interval: 'Every minute',
    update: 'Update',
    error: 'Error',
    inline: 'Inline',
    side: 'Side by side',
    filterError: 'Errors',
    filterAll: 'All',
    oneDay: 'One day only',
    allDays: 'All days',
    date: 'Date',
    emptyDay: 'Nothing recorded on this day.',
    notFound: 'The URL could not be reached (404).',
    registration: 'Data at registration',
    beforeAlt: /^The page before the update of /,
    editSettings: 'Edit settings',
    redo: 'Redo registration',
    matched: 'Group 1, condition 1: the added part of Price contains “sale”',
  },
};

type Catalogue = { [key: string]: string | Catalogue };

async function featureCatalogue(name: string): Promise<Catalogue> {
  return JSON.parse(await readFile(join(repoRoot, `web/src/i18n/features/${name}.json`), 'utf8'));
}

describe('site detail and v1 history against the running product', () => {
  it('has a Japanese and an English message for every check error code the history documents', async () => {
    type Schema = {
      properties?: Record<string, Schema>;
      items?: Schema;
      anyOf?: Schema[];
      description?: string;
    };
    const document = (await (await fetch(pageUrl('/api/openapi.json'))).json()) as {
      paths: Record<
        string,
        { get: { responses: Record<string, { content: Record<string, { schema: Schema }> }> } }
      >;
    };
    const entry =
      document.paths['/api/v2/history']?.get.responses['200']?.content['application/json']?.schema.properties
        ?.entries?.items;
    // The error is an object or null: `anyOf` in the document generated from the route's schema.
    const error = entry?.properties?.error?.anyOf?.find((option) => option.properties);
    const listed = error?.properties?.code?.description?.split(': ')[1] ?? '';
    const codes = [...listed.split(', '), 'check_failed', 'screenshot_failed'];
    expect(codes.length).toBeGreaterThan(14);
    for (const language of ['ja', 'en']) {
      const messages = await featureCatalogue(`errors-check.${language}`);
      expect(codes.filter((code) => typeof messages[code] !== 'string')).toEqual([]);
    }
  });

  it(
    'signs up, verifies from the mailbox, signs in and registers a v2 site, a gone page and a v1 site',
    async () => {
      context = await browser.newContext({ locale: 'ja-JP', viewport: WIDE });
      const page = await context.newPage();
      await signedUpAndIn(page, product.url, {
        email: EMAIL,
        password: PASSWORD,
        labels: { ...SIGN_UP_LABELS.ja, plan: 'ベーシック5 (1分間隔) 5サイト' },
      });
      await page.close();

      // Days and times are the user's: Tokyo, whatever zone this machine runs in.
      const { user_id } = await api<{ user_id: string }>('/api/user_info');
      await api('/api/account/update', { user_id, timezone: 'Asia/Tokyo' });

      type Saved = { target_v2_id: string; paused: boolean };
      const sale = await api<Saved>('/api/v2/target/register', saleSite('Autumn sale', '/sale'));
      const gone = await api<Saved>('/api/v2/target/register', saleSite('Gone page', '/gone'));
      expect([sale.paused, gone.paused]).toEqual([false, false]);
      sites.sale = sale.target_v2_id;
      sites.gone = gone.target_v2_id;
      const imported = await api<{ imported: { id: string }[] }>('/api/v1/import', {
        text: `${shop.url('/whole')}\n`,
        format: 'list',
      });
      sites.v1 = imported.imported[0]?.id ?? '';
      expect(sites.v1).not.toBe('');

      // The first check records the page as it was registered; a changed price is then an update.
      await waitForHistory(sites.sale, 'all', 'the first check of the sale page');
      shop.setPrice('¥980 sale');
      await waitForHistory(sites.sale, 'update', 'the update of the sale page');
      await waitForHistory(sites.gone, 'error', 'the failed check of the gone page');
      const { entries } = await api<HistoryAnswer>(`/api/v2/history?id=${sites.sale}&filter=update`);
      expect(entries[0]?.update?.screenshots.after).toMatch(/^\/api\/v2\/screenshot\?/);
    },
    2 * CHECK_WAIT_MS + 60_000,
  );

  for (const [language, viewport, name] of [
    ['ja', WIDE, '1280-ja'],
    ['ja', NARROW, '375-ja'],
    ['en', WIDE, '1280-en'],
    ['en', NARROW, '375-en'],
  ] as const) {
    it(`shows the update with its diff, pictures, errors and one day — ${name}`, async () => {
      const words = WORDS[language];
      await setLanguage(language);
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      await page.goto(pageUrl(`/target2?id=${sites.sale}`));
      await expect.poll(() => heading(page)).toBe(words.title);
      await expect.poll(() => page.getByRole('heading', { level: 2, name: 'Autumn sale' }).count()).toBe(1);
      expect(await page.getByTestId('site-state').textContent()).toBe(words.monitoring);
      expect(await page.getByText(words.interval, { exact: true }).count()).toBe(1);
      const wizard = viewport === WIDE ? '/sr2c' : '/sr2m';
      expect(await page.getByRole('link', { name: words.editSettings }).getAttribute('href')).toBe(
        `${wizard}?id=${sites.sale}&step=notify`,
      );
      expect(await page.getByRole('link', { name: words.redo }).getAttribute('href')).toBe(
        `${wizard}?id=${sites.sale}`,
      );

      // The update: the old price struck out and the new one inserted, inline and side by side.
      const update = page.getByTestId('history-entry').filter({ hasText: '¥980' }).first();
      // The history list loads after the page; on a loaded machine that takes more than poll's 5 s.
      await expect
        .poll(() => update.locator('h3').textContent(), { timeout: 30_000 })
        .toContain(words.update);
      // The update's one line, in the page's language, above its diff (docs/product.md#summary).
      expect(await update.getByTestId('update-summary').textContent()).toBe(
        language === 'ja' ? '¥1,200 → ¥980（−18%）' : '¥1,200 → ¥980 (−18 %)',
      );
      await expect
        .poll(() => update.getByTestId('diff-inline').locator('del').allTextContents())
        .toContain('¥1,200');
      expect((await update.getByTestId('diff-inline').locator('ins').allTextContents()).join(' ')).toContain(
        '980',
      );
      expect(await update.getByText(words.matched, { exact: true }).count()).toBe(1);
      await page.getByRole('radio', { name: words.side }).check();
      const side = update.getByTestId('diff-side');
      await expect.poll(() => side.locator('td del').allTextContents()).toContain('¥1,200');
      expect((await side.locator('td ins').allTextContents()).join(' ')).toContain('980');
      await expectImagesLoaded(page, '.update-screenshots img', 2);
      expect(await update.getByRole('img', { name: words.beforeAlt }).count()).toBe(1);
      // The images stand side by side on a wide window and one above the other on a narrow one.
      const boxes = await update
        .locator('.update-screenshots img')
        .evaluateAll((images) => images.map((image) => image.getBoundingClientRect().top));
      if (viewport === WIDE) expect(boxes[0]).toBe(boxes[1]);
      else expect(boxes[1]).toBeGreaterThan(boxes[0] ?? 0);

      // The data at registration: the area's first text.
      const registration = page.getByRole('region', { name: words.registration });
      await expect.poll(() => registration.locator('pre').first().textContent()).toBe('¥1,200');

      // One day: today in the user's zone has the checks; a day long ago has none.
      await page.getByRole('radio', { name: words.oneDay }).check();
      await expect.poll(() => page.getByTestId('history-entry').count()).toBeGreaterThan(0);
      await page.getByLabel(words.date, { exact: true }).fill('2020-01-01');
      await expect.poll(() => page.getByText(words.emptyDay).count()).toBe(1);
      await page.getByRole('radio', { name: words.allDays }).check();
      await expect.poll(() => page.getByTestId('history-entry').count()).toBeGreaterThan(1);

      await expectNoSidewaysOverflow(page);
      await expectNoSeriousAxeViolations(page);
      await screenshot(page, `site-detail-${name}`);

      // The gone page: filtered to errors, each says why in the user's language.
      await page.goto(pageUrl(`/target2?id=${sites.gone}`));
      await expect.poll(() => page.getByRole('heading', { level: 2, name: 'Gone page' }).count()).toBe(1);
      await page.getByRole('radio', { name: words.filterError, exact: true }).check();
      const failures = page.getByTestId('history-entry');
      await expect
        .poll(() => failures.first().locator('.entry-error-message').textContent())
        .toBe(words.notFound);
      for (const heading of await failures.locator('h3').allTextContents())
        expect(heading).toContain(words.error);
      // The filter lives in the address, so a reload keeps it.
      expect(new URL(page.url()).searchParams.get('filter')).toBe('error');
      await page.reload();
      await expect
        .poll(() => failures.first().locator('.entry-error-message').textContent())
        .toBe(words.notFound);
      expect(await page.getByRole('radio', { name: words.filterError, exact: true }).isChecked()).toBe(true);
      await expectNoSidewaysOverflow(page);
      await expectNoSeriousAxeViolations(page);
      await page.close();
    }, 90_000);
  }

  it('pauses, resumes and deletes with their messages, ignoring clicks while an action runs', async () => {
    await setLanguage('ja');
    const page = await context.newPage();
    await page.goto(pageUrl(`/target2?id=${sites.gone}`));
    await expect.poll(() => page.getByTestId('site-state').textContent()).toBe('監視中');

    // A double click is one pause: the second click comes while the first runs.
    await page.getByRole('button', { name: '一時停止' }).dblclick();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('監視を一時停止しました。');
    await expect.poll(() => page.getByTestId('site-state').textContent()).toBe('一時停止中');
    expect(await page.getByRole('alert').count()).toBe(0);

    await page.getByRole('button', { name: '再開' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('監視を再開しました。');
    await expect.poll(() => page.getByTestId('site-state').textContent()).toBe('監視中');

    // Delete asks first; cancelling keeps the site.
    await page.getByRole('button', { name: '削除' }).click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain('サイトを削除しますか？この操作は取り消せません。');
    await expectNoSeriousAxeViolations(page);
    await confirm.getByRole('button', { name: 'キャンセル' }).click();
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    await page.getByRole('button', { name: '削除' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: '削除' }).click();
    await expect.poll(() => page.getByRole('alertdialog').textContent()).toContain('削除しました。');
    await page.getByRole('alertdialog').getByRole('button', { name: 'ダッシュボードへ戻る' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    const { targets } = await api<{ targets: { id: string }[] }>('/api/v2/targets');
    expect(targets.map((target) => target.id)).not.toContain(sites.gone);
    await page.close();
  });

  it('shows a v1 site’s history at /history and pauses and resumes it with its target_id', async () => {
    await setLanguage('en');
    const page = await context.newPage();
    await page.setViewportSize(NARROW);
    await page.goto(pageUrl(`/history?id=${sites.v1}`));
    await expect.poll(() => heading(page)).toBe('Update history');
    await expect.poll(() => page.getByTestId('site-state').textContent()).toBe('Monitoring');
    expect(await page.getByText('Every hour', { exact: true }).count()).toBe(1);
    // A v1 site was never built in the wizard: there is nothing to edit or redo there.
    expect(await page.getByRole('link', { name: 'Edit settings' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Monitoring paused.');
    await expect.poll(() => page.getByTestId('site-state').textContent()).toBe('Paused');
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Monitoring resumed.');
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, 'site-history-375-en');
    // A v2 site is not a v1 site's history.
    await page.goto(pageUrl(`/history?id=${sites.sale}`));
    await expect
      .poll(() => page.getByText('This site was not found. It may have been deleted.').count())
      .toBe(1);
    await page.close();
  });

  it(
    'pages to older and newer checks five at a time',
    async () => {
      await setLanguage('en');
      const page = await context.newPage();
      await page.goto(pageUrl(`/target2?id=${sites.sale}`));
      await page.getByLabel('Per page').selectOption('5');
      const entries = page.getByTestId('history-entry');
      // Paging appears once the sale page has been checked more than five times.
      const older = page.getByRole('button', { name: 'Older' });
      await expect
        .poll(
          async () => {
            if ((await older.count()) > 0 && (await older.isEnabled())) return true;
            await page.reload();
            await page.getByLabel('Per page').selectOption('5');
            await entries.first().waitFor();
            return false;
          },
          { timeout: PAGING_WAIT_MS, interval: 2_000 },
        )
        .toBe(true);
      expect(await entries.count()).toBe(5);
      const times = () =>
        entries
          .locator('time')
          .evaluateAll((found) => found.map((time) => time.getAttribute('datetime') ?? ''));
      const newest = await times();
      expect(await page.getByRole('button', { name: 'Newer' }).isDisabled()).toBe(true);
      await older.click();
      await expect.poll(() => page.getByRole('button', { name: 'Newer' }).isEnabled()).toBe(true);
      // The older page starts where the newest one ended, with nothing shown twice.
      const olderPage = await times();
      expect(olderPage.length).toBeGreaterThan(0);
      expect((olderPage[0] ?? '') < (newest.at(-1) ?? '')).toBe(true);
      await page.getByRole('button', { name: 'Newer' }).click();
      await expect.poll(times).toEqual(newest);
      await page.close();
    },
    PAGING_WAIT_MS + 60_000,
  );
});
