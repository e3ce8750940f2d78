import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
  shots,
  signedUpAndIn,
  WIDE,
} from './steps.ts';

// The audit log screen (docs/product.md#audit-log): a few actions through the API, seen in the
// log under the person who did them; filtered by kind; the CSV downloaded and read; each
// language at both widths, checked by axe and saved for reading.

const running = productAndBrowser();
const pageUrl = (path: string) => new URL(path, running.product.url).href;
/** Where a reviewer collects the screenshots too (REVIEW_SHOTS_DIR), beside the usual test-results. */
const REVIEW_SHOTS = process.env.REVIEW_SHOTS_DIR ?? '';

type Words = {
  title: string;
  kind: string;
  siteKind: string;
  csv: string;
  imported: string;
  paused: string;
  tokenMade: string;
  signedIn: string;
  failedSignIn: string;
  providerNotice: string;
  viaToken: string;
  csvHeader: string;
  clear: string;
};
const WORDS: Record<'ja' | 'en', Words> = {
  ja: {
    title: '監査ログ',
    kind: '操作の種類',
    siteKind: 'サイト',
    csv: 'CSV をダウンロード',
    imported: 'サイトを一括登録',
    paused: 'サイトを一時停止',
    tokenMade: 'API トークンを作成',
    signedIn: 'ログイン',
    failedSignIn: 'ログインに失敗',
    providerNotice: '決済サービスからの通知を反映',
    viaToken: 'API トークン「deploy」経由',
    csvHeader: '日時 (',
    clear: '条件をクリア',
  },
  en: {
    title: 'Audit log',
    kind: 'Kind of action',
    siteKind: 'Sites',
    csv: 'Download CSV',
    imported: 'Imported sites',
    paused: 'Paused a site',
    tokenMade: 'Made an API token',
    signedIn: 'Signed in',
    failedSignIn: 'Failed to sign in',
    providerNotice: 'Applied a payment provider’s notice',
    viaToken: 'via API token “deploy”',
    csvHeader: 'Time (',
    clear: 'Clear filters',
  },
};

async function finished(page: Page, name: string) {
  await expectNoSidewaysOverflow(page);
  await expectNoSeriousAxeViolations(page);
  await screenshot(page, name);
  if (!REVIEW_SHOTS) return;
  await mkdir(REVIEW_SHOTS, { recursive: true });
  await copyFile(join(shots, `${name}.png`), join(REVIEW_SHOTS, `${name}.png`));
}

/** The actions' names as the rows show them, newest first. */
const shownActions = (page: Page) =>
  page.getByTestId('audit-entry').locator('.audit-action').allTextContents();

describe('the audit log', () => {
  for (const lang of ['ja', 'en'] as const) {
    it(`shows what was done, filters it and exports it as CSV (${lang})`, async () => {
      const words = WORDS[lang];
      const page = await openPage(running.browser, lang === 'ja' ? 'ja-JP' : 'en-US', WIDE);
      const email = `audit-${lang}@example.com`;
      await signedUpAndIn(page, running.product.url, {
        email,
        password: 'mimamori-pass-1',
        labels: SIGN_UP_LABELS[lang],
      });
      const api = apiOf(page.context(), running.product.url);
      const imported = await api.post('/api/v1/import', {
        text: `${pageUrl('/mock/ec?item=audit')},Audit shop`,
      });
      expect(imported.status).toBe(200);
      const siteId = (imported.body as { imported: { id: string }[] }).imported[0]?.id ?? '';
      expect((await api.post('/api/pause', { target_id: siteId })).status).toBe(200);
      const token = await api.post('/api/tokens', { name: 'deploy', scopes: ['write'], expires_in_days: 7 });
      expect(token.status).toBe(201);
      // A script resumes the site with the token: the log names the token on the person's behalf.
      const resumed = await fetch(pageUrl('/api/resume'), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${(token.body as { secret: string }).secret}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ target_id: siteId }),
      });
      expect(resumed.status).toBe(200);
      // Someone else tries the person's address with a wrong password.
      const stranger = await fetch(pageUrl('/api/signin'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': 'x', cookie: 'csrf_token=x' },
        body: JSON.stringify({ email, password: 'not-the-password' }),
      });
      expect(stranger.status).toBe(401);

      await page.goto(pageUrl('/account'));
      await page.getByRole('link', { name: lang === 'ja' ? '監査ログを開く' : 'Open the audit log' }).click();
      await page.waitForURL((url) => url.pathname === '/audit');
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(words.title);
      await expect
        .poll(() => shownActions(page), { timeout: 15_000 })
        .toEqual(
          expect.arrayContaining([
            words.failedSignIn,
            words.tokenMade,
            words.paused,
            words.imported,
            words.signedIn,
          ]),
        );
      const rows = await page.getByTestId('audit-entry').allTextContents();
      expect(rows.find((row) => row.includes(words.viaToken))).toContain('Audit shop');
      expect(rows.find((row) => row.includes(words.imported))).toContain(email);
      expect(rows.find((row) => row.includes(words.providerNotice))).toContain('Stripe');
      await finished(page, `37-audit-${lang}-1280`);

      await page.getByLabel(words.kind).selectOption({ label: words.siteKind });
      await page.waitForURL((url) => url.searchParams.get('kind') === 'site');
      await expect.poll(() => shownActions(page)).toHaveLength(3);
      expect((await shownActions(page)).at(-1)).toBe(words.imported);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: words.csv }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^mimamori-audit-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = await readFile(String(await download.path()), 'utf8');
      expect(csv.startsWith(`\uFEFF${words.csvHeader}`)).toBe(true);
      const lines = csv
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines.slice(1).map((line) => line.split(',')[4])).toEqual([
        'site.resumed',
        'site.paused',
        'site.imported',
      ]);
      expect(lines[1]).toContain(',deploy,');

      await page.getByRole('button', { name: words.clear }).click();
      await expect.poll(() => shownActions(page)).toContain(words.failedSignIn);
      await page.setViewportSize(NARROW);
      await expect.poll(() => page.locator('.audit-card').count()).toBeGreaterThan(4);
      await finished(page, `37-audit-${lang}-375`);
      await page.context().close();
    }, 180_000);
  }
});
