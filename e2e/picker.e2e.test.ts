import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailFromMailbox } from './mailbox.ts';
import {
  expectNoSeriousAxeViolations,
  expectNoSidewaysOverflow,
  NARROW,
  productAndBrowser,
  SIGN_UP_LABELS,
  screenshot,
  signedUpAndIn,
  WIDE,
} from './steps.ts';

// The area picker (docs/product.md#areas) against the running product: an area chosen by pointer
// or by keys, an element inside it excluded, the exclusion shown masked and left out of the text
// compared, and, once registered, an update that ignores the excluded element's change.

/** Each test's own copy of the shop page, so one test's change is not another's. */
const shops = new Map<string, { stamp: string; stock: string }>();
const shopPage = ({ stamp, stock }: { stamp: string; stock: string }) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tea shop</title>
<style>body{font-family:sans-serif;margin:24px;max-width:900px} .card{border:1px solid #ccc;padding:16px;width:300px}
#price{font-size:28px;margin:8px 0} p{margin:6px 0}</style></head><body>
<h1>Tea shop</h1>
<p id="intro">Fresh leaves from Shizuoka, picked in spring.</p>
<div class="card" id="card"><h2 id="name">Sencha 100g</h2><p id="price">¥1,280</p><p id="stamp">Updated ${stamp}</p><p id="stock">In stock: ${stock}</p></div>
<p id="footer">Prices include tax.</p>
</body></html>`;

/** How often each path was fetched: a registered site's first check is one more. */
const fetches = new Map<string, number>();
let shop: Server;
let port = 0;
beforeAll(async () => {
  shop = createServer((request, response) => {
    const path = request.url ?? '';
    fetches.set(path, (fetches.get(path) ?? 0) + 1);
    const state = shops.get(path) ?? { stamp: '10:00', stock: '12' };
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shopPage(state));
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  port = (shop.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => shop?.close(resolve)));
const running = productAndBrowser(() => ({ env: { CRAWLER_ALLOW: `127.0.0.1:${port}` } }));

/** Opening a page in the crawler's browser may take up to about a minute (docs/product.md#checks). */
const PAGE_LOAD = { timeout: 90_000 };
const READING = { timeout: 30_000 };
/** What the screen does at once, given time for a loaded machine (expect.poll's own is 1 s). */
const SOON = { timeout: 10_000 };

const words = {
  ja: {
    next: '次へ',
    areasStep: 'ステップ 3/5: 監視エリアの指定',
    contentStep: 'ステップ 4/5: エリア内容の確認',
    notifyStep: 'ステップ 5/5: 通知設定',
    parent: '親要素',
    choose: 'この要素を選ぶ',
    excludeThis: 'この要素を除外',
    exclude: (label: string) => `「${label}」の中の要素を除外`,
    excluded: (label: string) => `「Updated 10:00」を「${label}」から除外しました。`,
    compared: '比較される内容 (オプション適用後)',
    regexes: '除外する正規表現 (Python形式)',
    refused: (label: string) =>
      `エリア1「${label}」: 正規表現「(?<=a)b」は先読み・後読み ((?=…) (?!…) (?<=…) (?<!…)) を使っているため、RE2では実行できません。`,
    added: 'エリアを追加しました。',
    addGroup: 'グループを追加',
    removeGroup: 'グループを削除 (1)',
    ruleRefused: (label: string) =>
      `条件1（エリア「${label}」）: 正規表現「(?<=a)b」は先読み・後読み ((?=…) (?!…) (?<=…) (?<!…)) を使っているため、RE2では実行できません。`,
    register: '登録する',
  },
  en: {
    next: 'Next',
    areasStep: 'Step 3 of 5: Choose the areas',
    contentStep: 'Step 4 of 5: Confirm area contents',
    notifyStep: 'Step 5 of 5: Notification settings',
    parent: 'Parent',
    choose: 'Choose this element',
    excludeThis: 'Exclude this element',
    exclude: (label: string) => `Exclude elements inside “${label}”`,
    excluded: (label: string) => `“Updated 10:00” is excluded from “${label}”.`,
    compared: 'Content as compared (options applied)',
    regexes: 'Regular expressions to exclude (Python syntax)',
    refused: (label: string) =>
      `Area 1 “${label}”: the regular expression “(?<=a)b” uses a look-around ((?=…) (?!…) (?<=…) (?<!…)), which RE2 cannot run.`,
    added: 'Area added.',
    addGroup: 'Add a group',
    removeGroup: 'Remove group 1',
    ruleRefused: (label: string) =>
      `Condition 1 on “${label}”: the regular expression “(?<=a)b” uses a look-around ((?=…) (?!…) (?<=…) (?<!…)), which RE2 cannot run.`,
    register: 'Register',
  },
} as const;

type Rect = { x: number; y: number; width: number; height: number } | null;
/** Whether two boxes on the screen share no pixel (a pixel of rounding forgiven). */
const apart = (a: Rect, b: Rect) =>
  a !== null &&
  b !== null &&
  (a.x + a.width <= b.x + 1 ||
    b.x + b.width <= a.x + 1 ||
    a.y + a.height <= b.y + 1 ||
    b.y + b.height <= a.y + 1);

const heading = (page: Page) => page.locator('h2.step-title').textContent();

/** The wizard up to its area step, for the shop page at `path`. */
async function toAreaStep(page: Page, lang: 'ja' | 'en', path: string) {
  const w = words[lang];
  await page.goto(new URL('/sr2c', running.product.url).href);
  await page.getByLabel('URL', { exact: true }).fill(`http://127.0.0.1:${port}${path}`);
  await page.getByRole('button', { name: w.next }).click();
  while ((await heading(page)) !== w.areasStep) {
    await expect.poll(() => page.getByRole('button', { name: w.next }).isEnabled(), PAGE_LOAD).toBe(true);
    const before = await heading(page);
    await page.getByRole('button', { name: w.next }).click();
    await expect.poll(() => heading(page), PAGE_LOAD).not.toBe(before);
  }
}

const cases = [
  { lang: 'ja', width: 'wide', by: 'pointer' },
  { lang: 'en', width: 'wide', by: 'keys' },
  { lang: 'ja', width: 'narrow', by: 'keys' },
  { lang: 'en', width: 'narrow', by: 'touch' },
] as const;

describe('the area picker', () => {
  for (const { lang, width, by } of cases) {
    it(`chooses the card by ${by}, excludes its time stamp and registers it — ${lang}, ${width}`, async () => {
      const w = words[lang];
      const narrow = width === 'narrow';
      const context = await running.browser.newContext({
        locale: lang === 'ja' ? 'ja-JP' : 'en-US',
        viewport: narrow ? NARROW : WIDE,
        ...(by === 'touch' ? { hasTouch: true, isMobile: true } : {}),
      });
      const page = await context.newPage();
      const email = `picker-${lang}-${width}@example.com`;
      const path = `/item/${lang}-${width}`;
      shops.set(path, { stamp: '10:00', stock: '12' });
      await signedUpAndIn(page, running.product.url, {
        email,
        password: 'picker-pass-1',
        labels: SIGN_UP_LABELS[lang],
      });
      await toAreaStep(page, lang, path);

      // The page is at its own size: the price is as large as the shop draws it, not a 19×7 target.
      const price = page.getByRole('button', { name: '¥1,280', exact: true });
      const priceBox = await price.boundingBox();
      expect(priceBox?.height).toBeGreaterThanOrEqual(30);
      const surface = page.getByRole('group', { name: lang === 'ja' ? /^ページの画像/ : /^Page picture/ });
      const outlined = page.locator('.picker-current');
      if (by === 'pointer') {
        // As an inspector: the element under the pointer is outlined, its tag beside it.
        await price.hover();
        await expect.poll(() => outlined.textContent(), SOON).toContain('¥1,280');
        const tag = await page.locator('.area-inspect-label').boundingBox();
        expect(apart(tag, priceBox)).toBe(true);
        await page.getByRole('button', { name: w.parent }).click();
      } else if (by === 'touch') {
        // A tap outlines without choosing; the buttons under the picture move and choose.
        await price.tap();
        await expect.poll(() => outlined.textContent(), SOON).toContain('¥1,280');
        expect(await page.locator('.area-row').count()).toBe(0);
        await page.getByRole('button', { name: w.parent }).tap();
      } else {
        // Keys: the first element with text, then its neighbours down to the card.
        await surface.focus();
        await page.keyboard.press('ArrowDown');
        await expect.poll(() => outlined.textContent(), SOON).toContain('Tea shop');
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowRight');
      }
      await expect.poll(() => outlined.textContent(), SOON).toContain('Sencha 100g ¥1,280');
      if (by === 'keys') await page.keyboard.press('Enter');
      else await page.getByRole('button', { name: w.choose }).click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: w.added }).count(), READING).toBe(1);
      const label = (await page.locator('.area-row-label').textContent()) ?? '';

      // The area's name is beside its box, never over its text.
      const area = await page.locator('.area-designated').boundingBox();
      const name = await page.locator('.area-designated-label').boundingBox();
      expect(apart(name, area)).toBe(true);
      // The card is still outlined: its tag and the area's name do not cover each other.
      expect(apart(await page.locator('.area-inspect-label').boundingBox(), name)).toBe(true);
      // Taken after the outline is read: a full-page screenshot resizes the page while it
      // captures, which can move the outline off the card (a CI run found no tag after one).
      if (!narrow) await screenshot(page, `picker-after-${lang}-1280`);

      // The time stamp inside the card is excluded: masked on the picture and listed.
      await page.getByRole('button', { name: w.exclude(label) }).click();
      const stamp = page.getByRole('button', { name: 'Updated 10:00', exact: true });
      if (by === 'touch') {
        await stamp.tap();
        await page.getByRole('button', { name: w.excludeThis }).tap();
      } else if (by === 'keys') {
        // The card stays outlined after it was chosen: its heading, the price, then the stamp.
        await surface.focus();
        await page.keyboard.press('ArrowDown'); // the card's heading
        await page.keyboard.press('ArrowRight'); // the price
        await page.keyboard.press('ArrowRight'); // the stamp
        await expect.poll(() => outlined.textContent(), SOON).toMatch(/[“「]Updated 10:00[”」]$/);
        await page.keyboard.press('Enter');
      } else {
        await stamp.click();
      }
      await expect
        .poll(
          () =>
            page
              .getByRole('status')
              .filter({ hasText: w.excluded(label) })
              .count(),
          SOON,
        )
        .toBe(1);
      expect(await page.locator('.area-excluded').count()).toBe(1);
      await expectNoSidewaysOverflow(page);
      await expectNoSeriousAxeViolations(page);
      await screenshot(page, `picker-${narrow ? 'after' : 'exclude'}-${lang}-${narrow ? 375 : 1280}`);

      // The content step shows what checks compare: the card without its time stamp.
      await page.getByRole('button', { name: w.next }).click();
      await expect.poll(() => heading(page), SOON).toBe(w.contentStep);
      await expect
        .poll(() => page.getByLabel(w.compared).inputValue(), READING)
        .toBe('Sencha 100g\n¥1,280\nIn stock: 12');
      // A pattern the server would refuse at Register is refused here, as typed, naming the area.
      const regexes = page.getByLabel(w.regexes);
      await regexes.fill('(?<=a)b');
      await expect.poll(() => regexes.getAttribute('aria-invalid'), READING).toBe('true');
      expect(await page.locator('.area-card .field-error').textContent()).toBe(w.refused(label));
      await regexes.fill('');
      await expect.poll(() => regexes.getAttribute('aria-invalid'), READING).toBeNull();
      await page.getByRole('button', { name: w.next }).click();
      await expect.poll(() => heading(page), SOON).toBe(w.notifyStep);
      // A rule's pattern is checked as typed too, naming the condition, its area and the pattern.
      await page.getByRole('button', { name: w.addGroup }).click();
      await page.locator('#wizard-rules-group-0-condition-0-operator').selectOption('re');
      const rulePattern = page.locator('#wizard-rules-group-0-condition-0-value');
      await rulePattern.fill('(?<=a)b');
      await expect.poll(() => rulePattern.getAttribute('aria-invalid'), READING).toBe('true');
      expect(await page.locator('#wizard-rules-group-0-condition-0-problem').textContent()).toBe(
        w.ruleRefused(label),
      );
      await page.getByRole('button', { name: w.removeGroup }).click();
      // The interval stays the plan's fastest free one: 10 product minutes, 20 s here.
      const fetchedBefore = fetches.get(path) ?? 0;
      await page.getByRole('button', { name: w.register, exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/target2', { timeout: 30_000 });
      if (by !== 'pointer') return;

      // Once the first check has read the page, the time stamp and the stock beside it change: the
      // update reports the stock, not the stamp.
      await expect.poll(() => fetches.get(path) ?? 0, { timeout: 60_000 }).toBeGreaterThan(fetchedBefore);
      shops.set(path, { stamp: '10:05', stock: '11' });
      const mail = await mailFromMailbox(running.product.url, email, 'In stock: 11', 90_000);
      expect(mail.text).not.toContain('10:05');
    }, 300_000);
  }
});
