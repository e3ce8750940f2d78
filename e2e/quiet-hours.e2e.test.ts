import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { digestMailContent } from '../services/notifier/src/domain/digest-content.ts';
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

const running = productAndBrowser();

type Words = {
  title: string;
  from: string;
  until: string;
  saturday: string;
  sunday: string;
  holidays: string;
  alerts: string;
  save: string;
  saved: string;
  timeInvalid: string;
};
const JA: Words = {
  title: 'お休みの時間帯',
  from: '開始',
  until: '終了',
  saturday: '土曜日',
  sunday: '日曜日',
  holidays: '日本の祝日も終日お休みにする',
  alerts: '確認の失敗・復旧・変化なしのお知らせはお休み中でもすぐに送る',
  save: '保存',
  saved: 'お休みの時間帯を保存しました。',
  timeInvalid: '時間帯は開始と終了の両方を',
};
const EN: Words = {
  title: 'Quiet hours',
  from: 'From',
  until: 'Until',
  saturday: 'Saturday',
  sunday: 'Sunday',
  holidays: 'Japanese public holidays are quiet all day too',
  alerts: 'Send failure, recovery and no-change alerts at once, even in quiet hours',
  save: 'Save',
  saved: 'Quiet hours saved.',
  timeInvalid: 'Give both the start and the end',
};

/** Nights 20:00–08:00, weekends and holidays, alerts held: refused first with equal times, then saved. */
async function setQuietHours(page: Page, words: Words) {
  const section = page.getByRole('region', { name: words.title });
  await section.getByLabel(words.from, { exact: true }).fill('08:00');
  await section.getByLabel(words.until, { exact: true }).fill('08:00');
  await section.getByRole('button', { name: words.save, exact: true }).click();
  await expect.poll(() => section.getByRole('alert').textContent()).toContain(words.timeInvalid);

  await section.getByLabel(words.from, { exact: true }).fill('20:00');
  await section.getByLabel(words.saturday).check();
  await section.getByLabel(words.sunday).check();
  await section.getByLabel(words.holidays).check();
  await section.getByLabel(words.alerts).uncheck();
  await section.getByRole('button', { name: words.save, exact: true }).click();
  await expect.poll(() => section.getByRole('status').textContent()).toContain(words.saved);
  await section.scrollIntoViewIfNeeded();
  return section;
}

describe('quiet hours on the account page (docs/product.md#quiet-hours)', () => {
  it('sets nights, the weekend and holidays in Japanese at 1280 and 375 px', async () => {
    const page = await openPage(running.browser, 'ja-JP', WIDE);
    await signedUpAndIn(page, running.product.url, {
      email: 'quiet-ja@example.com',
      password: 'quiet-pass-1',
      labels: SIGN_UP_LABELS.ja,
    });
    await page.goto(new URL('/account', running.product.url).href);
    const section = await setQuietHours(page, JA);
    expect((await apiOf(page.context(), running.product.url).get('/api/v2/quiet-hours')).body).toEqual({
      from: '20:00',
      until: '08:00',
      all_day: [0, 6],
      holidays: true,
      alerts_break_through: false,
      // The account settings' revision, which the next save sends back (docs/api.md#edit-conflicts).
      revision: expect.any(Number),
    });
    await expectNoSeriousAxeViolations(page);
    await section.screenshot({ path: join(shots, 'quiet-hours-ja-1280-section.png') });
    await page.setViewportSize(NARROW);
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await section.screenshot({ path: join(shots, 'quiet-hours-ja-375-section.png') });
    await page.context().close();
  }, 120_000);

  it('sets them in English at 375 px and reads them back after a reload at 1280 px', async () => {
    const page = await openPage(running.browser, 'en-US', NARROW);
    await signedUpAndIn(page, running.product.url, {
      email: 'quiet-en@example.com',
      password: 'quiet-pass-1',
      labels: SIGN_UP_LABELS.en,
    });
    await page.goto(new URL('/account', running.product.url).href);
    await setQuietHours(page, EN);
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await page.setViewportSize(WIDE);
    await page.reload();
    const section = page.getByRole('region', { name: EN.title });
    await expect.poll(() => section.getByLabel(EN.from, { exact: true }).inputValue()).toBe('20:00');
    expect(await section.getByLabel(EN.saturday).isChecked()).toBe(true);
    expect(await section.getByLabel(EN.alerts).isChecked()).toBe(false);
    await expectNoSeriousAxeViolations(page);
    await section.screenshot({ path: join(shots, 'quiet-hours-en-1280-section.png') });
    await page.context().close();
  }, 120_000);

  it('a digest mail as the notifier writes it (the closing note’s picture)', async () => {
    const page = await openPage(running.browser, 'ja-JP', { width: 640, height: 800 });
    const { html } = digestMailContent({
      lang: 'ja',
      timezone: 'Asia/Tokyo',
      from: new Date('2026-11-20T12:15:00Z'),
      until: new Date('2026-11-23T23:00:00Z'),
      items: [
        ['価格ページ', '¥1,200 → ¥980（−18%）', '2026-11-20T12:15:00Z'],
        ['在庫ページ', '売り切れ → 在庫あり', '2026-11-21T03:40:00Z'],
        ['お知らせ', '追加 2 件: 年末年始の営業時間、送料改定', '2026-11-23T01:05:00Z'],
      ].map(([label, summary, at], index) => ({
        updateId: `u${index}`,
        targetId: `t${index}`,
        label: String(label),
        url: 'https://shop.example.jp/',
        summary: String(summary),
        detectedAt: new Date(String(at)),
        historyUrl: new URL(`/target2?id=t${index}`, running.product.url).href,
      })),
    });
    await page.setContent(html);
    expect(await page.textContent('body')).toContain('お休み中の更新 3 件');
    await screenshot(page, 'quiet-hours-digest-mail-ja');
    await page.context().close();
  });
});
