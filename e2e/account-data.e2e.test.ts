import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
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

// The user's own data on the account screen: everything exported as one ZIP, then the account
// deleted with the password and the typed word, in Japanese at 1280 px and English at 375 px.

const running = productAndBrowser();
const PASSWORD = 'mimamori-pass-1';

const TEXT = {
  ja: {
    export: 'すべてのデータを書き出す',
    password: 'パスワード',
    confirm: '確認のため「削除」と入力してください',
    word: '削除',
    delete: 'アカウントを削除する',
    mismatch: '確認のため「削除」と入力してください。',
    gone: 'アカウントを削除しました',
  },
  en: {
    export: 'Export all my data',
    password: 'Password',
    confirm: 'Type “delete” to confirm',
    word: 'delete',
    delete: 'Delete my account',
    mismatch: 'Type “delete” to confirm.',
    gone: 'Your account is deleted',
  },
} as const;

async function finished(page: Page, name: string) {
  await expectNoSeriousAxeViolations(page);
  await expectNoSidewaysOverflow(page);
  await screenshot(page, name);
}

async function exportThenDelete(page: Page, lang: 'ja' | 'en', email: string, width: string) {
  const text = TEXT[lang];
  await signedUpAndIn(page, running.product.url, { email, password: PASSWORD, labels: SIGN_UP_LABELS[lang] });
  await page.goto(new URL('/account', running.product.url).href);
  const section = page.getByRole('region', {
    name: lang === 'ja' ? 'データの書き出しとアカウントの削除' : 'Export your data and delete the account',
  });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('button', { name: text.export }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^mimamori-export-\d{8}\.zip$/);
  const files = unzipSync(new Uint8Array(await readFile(await download.path())));
  expect(strFromU8(files['account.json'] ?? new Uint8Array())).toContain(email);
  await section.scrollIntoViewIfNeeded();
  await finished(page, `account-data-${width}-${lang}`);

  await section.getByLabel(text.password).fill(PASSWORD);
  await section.getByLabel(text.confirm).fill('x');
  await section.getByRole('button', { name: text.delete }).click();
  await expect.poll(() => section.getByText(text.mismatch).count()).toBeGreaterThan(0);
  await section.getByLabel(text.confirm).fill(text.word);
  await section.getByRole('button', { name: text.delete }).click();
  await page.waitForURL(/\/goodbye\?until=/);
  await expect.poll(() => page.getByRole('heading', { name: text.gone }).count()).toBe(1);
  await finished(page, `account-deleted-${width}-${lang}`);
  // The session is gone and the account too: signing in again is refused.
  const again = await apiOf(page.context(), running.product.url).post('/api/signin', {
    email,
    password: PASSWORD,
  });
  expect(again.status).toBe(401);
}

describe('the user’s own data', () => {
  it('exports everything as one ZIP, then deletes the account, in Japanese at 1280 px and English at 375 px', async () => {
    const ja = await openPage(running.browser, 'ja-JP', WIDE);
    await exportThenDelete(ja, 'ja', 'export-delete-ja@example.jp', '1280');
    await ja.context().close();
    const en = await openPage(running.browser, 'en-US', NARROW);
    await exportThenDelete(en, 'en', 'export-delete-en@example.com', '375');
    await en.context().close();
  }, 120_000);
});
