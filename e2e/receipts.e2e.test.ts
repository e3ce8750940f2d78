import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { extractText } from 'unpdf';
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

// Receipts on the account screen of the one-process product, billed through its Stripe stand-in:
// the list with tax per rate, the recipient name, a PDF qualified invoice read back as text, and
// the CSV, in Japanese at 1280 px and English at 375 px.

const PRICES = { 3: { month: { JPY: 980, USD: 700 }, year: { JPY: 9800, USD: 7000 } } };
const running = productAndBrowser(() => ({ env: { PLAN_PRICES: JSON.stringify(PRICES) } }));
const DAY = 86_400;
const PASSWORD = 'mimamori-pass-1';

function standInUrl(): string {
  const match = /Stripe stand-in \(billing without Stripe\): (http:\/\/127\.0\.0\.1:\d+)/.exec(
    running.product.output(),
  );
  if (!match?.[1])
    throw new Error(`the product did not start the Stripe stand-in:\n${running.product.output()}`);
  return match[1];
}

async function stripeCall(path: string, form: Record<string, string> = {}) {
  const response = await fetch(new URL(path, standInUrl()), {
    method: 'POST',
    headers: { authorization: 'Bearer sk_test_e2e', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { id: string; frozen_time: number };
}

/** The trial ends and the first month is charged to the card. */
async function advanceDays(days: number) {
  const clock = await stripeCall('/v1/test_helpers/test_clocks');
  await stripeCall(`/v1/test_helpers/test_clocks/${clock.id}/advance`, {
    frozen_time: String(clock.frozen_time + days * DAY),
  });
}

async function addTestCard(page: Page) {
  const api = apiOf(page.context(), running.product.url);
  const intent = await api.post('/api/billing/setup_intent', {});
  expect(intent.status).toBe(200);
  const card = await api.post('/api/billing/card', {
    setup_intent_id: (intent.body as { setup_intent_id: string }).setup_intent_id,
    test_card: 'pm_card_visa',
  });
  expect(card.status).toBe(200);
}

/** Clicks a download link and answers the file's name and bytes. */
async function download(page: Page, link: ReturnType<Page['getByRole']>) {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { name: file.suggestedFilename(), bytes: await readFile(await file.path()) };
}

async function pdfText(bytes: Buffer) {
  const { text } = await extractText(new Uint8Array(bytes), { mergePages: true });
  return text.replace(/\s+/g, '');
}

async function finished(page: Page, name: string) {
  await expectNoSeriousAxeViolations(page);
  await expectNoSidewaysOverflow(page);
  await screenshot(page, name);
}

describe('receipts on the account screen', () => {
  it('lists each invoice with its tax, downloads a PDF qualified invoice and the CSV, in Japanese and English', async () => {
    const ja = await openPage(running.browser, 'ja-JP', WIDE);
    const en = await openPage(running.browser, 'en-US', NARROW);
    await signedUpAndIn(ja, running.product.url, {
      email: 'receipts-ja@example.jp',
      password: PASSWORD,
      labels: SIGN_UP_LABELS.ja,
    });
    await signedUpAndIn(en, running.product.url, {
      email: 'receipts-en@example.com',
      password: PASSWORD,
      labels: SIGN_UP_LABELS.en,
    });
    await addTestCard(ja);
    await addTestCard(en);
    await advanceDays(15);

    await ja.goto(new URL('/account', running.product.url).href);
    const receipts = ja.getByTestId('receipts');
    const rows = receipts.getByTestId('receipt-row');
    // The trial's invoice of nothing, then the first month's.
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    const charged = rows.first();
    expect(await charged.textContent()).toContain('¥980');
    expect(await charged.textContent()).toContain('お支払い済み');
    expect(await charged.textContent()).toContain('10% 対象 ¥980（うち消費税 ¥89）');

    await receipts.getByLabel('宛名（お名前または会社名）').fill('株式会社テスト商事');
    await receipts.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => receipts.getByText('保存しました。').count()).toBe(1);

    const pdf = await download(ja, charged.getByRole('link', { name: /の領収書（PDF）$/ }));
    expect(pdf.name).toMatch(/^\d{8}_Mimamori_980_[0-9A-F]{8}-0002\.pdf$/);
    const text = await pdfText(pdf.bytes);
    const number = /_(\w{8}-0002)\.pdf$/.exec(pdf.name)?.[1] ?? '';
    for (const field of [
      '適格請求書',
      '株式会社テスト商事様',
      '発行者',
      '登録番号',
      `請求書番号${number}`,
      `取引年月日${pdf.name.slice(0, 4)}-${pdf.name.slice(4, 6)}-${pdf.name.slice(6, 8)}`,
      'みまもりベーシック5プラン',
      '10%¥980¥89',
      '合計（税込）¥980',
    ])
      expect(text, field).toContain(field);

    const csv = await download(ja, receipts.getByRole('link', { name: 'すべての請求を CSV でダウンロード' }));
    const lines = csv.bytes
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^取引年月日,請求書番号,取引先,登録番号,金額（税込）/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`,${number},`);
    expect(lines[1]).toContain(',980,JPY,980,89,');
    await finished(ja, 'receipts-1280-ja');

    await en.goto(new URL('/account', running.product.url).href);
    const enRows = en.getByTestId('receipts').getByTestId('receipt-row');
    await expect.poll(() => enRows.count(), { timeout: 15_000 }).toBe(2);
    // Abroad, in dollars: no Japanese consumption tax.
    expect(await enRows.first().textContent()).toContain('$7.00');
    expect(await enRows.first().textContent()).toContain('Not taxable: $7.00');
    const enPdf = await download(en, enRows.first().getByRole('link', { name: /^Receipt of .* \(PDF\)$/ }));
    const enText = await pdfText(enPdf.bytes);
    for (const field of [
      'Qualifiedinvoice',
      'Billto',
      'receipts-en@example.com',
      'Registrationnumber',
      'Nottaxable',
    ])
      expect(enText, field).toContain(field);
    await en.getByTestId('receipts').scrollIntoViewIfNeeded();
    await finished(en, 'receipts-375-en');
    await ja.context().close();
    await en.context().close();
  }, 120_000);
});
