import type { InvoiceList } from '@mimamori/http-api';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '../accounts/test-browser.ts';
import { type BillingHarness, ISSUER, startBillingHarness } from './billing-harness.ts';

let harness: BillingHarness;
/** Three accounts whose first charge's consumption tax rounds each its own way, and one abroad. */
const members: Record<'down' | 'up' | 'perRate' | 'abroad', { browser: TestBrowser; userId: string }> =
  {} as never;

/** The calendar day in Japan, as receipts date an account without a time zone of its own. */
const tokyoDay = (iso: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Tokyo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(iso));

async function addTestCard(browser: TestBrowser) {
  const intent = await browser.post('/api/billing/setup_intent');
  const card = await browser.post('/api/billing/card', {
    setup_intent_id: intent.body.setup_intent_id,
    test_card: 'pm_card_visa',
  });
  expect(card.status, card.text).toBe(200);
}

async function invoices(browser: TestBrowser) {
  const listed = await browser.get('/api/billing/invoices');
  expect(listed.status, listed.text).toBe(200);
  return listed.body as unknown as InvoiceList;
}

async function receiptText(browser: TestBrowser, id: string, lang?: 'ja' | 'en') {
  const response = await harness.gateway.app.inject({
    method: 'GET',
    url: `/api/billing/invoices/pdf?id=${id}${lang ? `&lang=${lang}` : ''}`,
    cookies: Object.fromEntries(browser.cookies),
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/pdf');
  const { text } = await extractText(new Uint8Array(response.rawPayload), { mergePages: true });
  // Text runs may break lines anywhere; the fields are looked for in the text without breaks.
  return { text: text.replace(/\s+/g, ''), disposition: String(response.headers['content-disposition']) };
}

beforeAll(async () => {
  harness = await startBillingHarness();
  [members.down, members.up, members.perRate, members.abroad] = await Promise.all([
    harness.member('down@example.jp'),
    harness.member('up@example.jp'),
    harness.member('per-rate@example.jp'),
    harness.member('abroad@example.com', 'en'),
  ]);
  // During the trial a change applies at once and charges nothing: the first charge is the plan's.
  const changes = [
    [members.up, { plan: 5, cycle: 'month', timing: 'now' }],
    [members.perRate, { plan: 2, cycle: 'month', options: ['ss'], timing: 'now' }],
  ] as const;
  for (const [member, change] of changes) {
    const changed = await member.browser.post('/api/billing/plan', change);
    expect(changed.status, changed.text).toBe(200);
  }
  const named = await members.down.browser.post('/api/billing/recipient', {
    name: '株式会社テスト商事',
    revision: 0,
  });
  expect(named).toMatchObject({ status: 200, body: { name: '株式会社テスト商事', revision: 1 } });
  await Promise.all(Object.values(members).map((member) => addTestCard(member.browser)));
  // The trial ends and the first period is charged.
  await harness.advanceDays(15);
}, 180_000);

afterAll(async () => {
  await harness?.close();
});

describe('receipts', () => {
  it('lists every invoice with tax per rate, one rounding per rate: down, up, and per rate rather than per line', async () => {
    const charged = async (member: { browser: TestBrowser }) => {
      const list = await invoices(member.browser);
      // The trial's invoice of nothing, then the first period's.
      expect(list.invoices.map((invoice) => [invoice.status, invoice.total])).toHaveLength(2);
      return list.invoices[0];
    };
    // 980 × 10/110 = 89.09 → 89.
    expect(await charged(members.down)).toMatchObject({
      status: 'paid',
      currency: 'JPY',
      total: 980,
      rates: [{ percentage: 10, amount: 980, tax: 89 }],
    });
    // 2,980 × 10/110 = 270.91 → 271.
    expect(await charged(members.up)).toMatchObject({
      total: 2980,
      rates: [{ percentage: 10, amount: 2980, tax: 271 }],
    });
    // 500 + 300 = 800 × 10/110 = 72.73 → 73; each line rounded alone would give 45 + 27 = 72.
    expect(await charged(members.perRate)).toMatchObject({
      total: 800,
      rates: [{ percentage: 10, amount: 800, tax: 73 }],
    });
    // Abroad (USD): no Japanese consumption tax.
    expect(await charged(members.abroad)).toMatchObject({
      currency: 'USD',
      total: 700,
      rates: [{ percentage: null, amount: 700, tax: 0 }],
    });
  });

  it('draws each as a PDF with every field of a qualified invoice, in Japanese and in English', async () => {
    const [invoice] = (await invoices(members.down.browser)).invoices;
    if (!invoice) throw new Error('no invoice');
    const ja = await receiptText(members.down.browser, invoice.id);
    const date = tokyoDay(invoice.issued_at);
    for (const field of [
      '適格請求書',
      '宛名',
      '株式会社テスト商事様',
      '発行者',
      ISSUER.legalName.ja,
      '登録番号',
      ISSUER.registrationNumber,
      '請求書番号',
      invoice.number,
      '取引年月日',
      date,
      'みまもりベーシック5プラン',
      '税率',
      '10%',
      '¥980',
      '消費税額',
      '¥89',
      '合計（税込）',
      `お支払い済み（${date}）`,
    ])
      expect(ja.text, field).toContain(field.replace(/\s+/g, ''));
    expect(ja.disposition).toContain(`${date.replaceAll('-', '')}_Mimamori_980_${invoice.number}.pdf`);

    const en = await receiptText(members.down.browser, invoice.id, 'en');
    for (const field of [
      'Qualifiedinvoice',
      'Billto',
      '株式会社テスト商事',
      ISSUER.legalName.en,
      ISSUER.registrationNumber,
      invoice.number,
      'Transactiondate',
      'MimamoriBasic5plan',
      'Consumptiontax',
      '¥89',
    ])
      expect(en.text, field).toContain(field.replace(/\s+/g, ''));

    const up = await receiptText(
      members.up.browser,
      (await invoices(members.up.browser)).invoices[0]?.id ?? '',
    );
    expect(up.text).toContain('¥2,980');
    expect(up.text).toContain('¥271');
    // Recipient never entered: the account's own address stands in.
    expect(up.text).toContain('up@example.jp様');
    const perRate = await receiptText(
      members.perRate.browser,
      (await invoices(members.perRate.browser)).invoices[0]?.id ?? '',
    );
    expect(perRate.text).toContain('¥800');
    expect(perRate.text).toContain('¥73');
    expect(perRate.text).toContain('カスタム追加：スクリーンショット');
  });

  it('keeps an issued invoice’s recipient when the name changes, and refuses a stale revision', async () => {
    const browser = members.down.browser;
    const stale = await browser.post('/api/billing/recipient', { name: 'Other', revision: 0 });
    expect(stale).toMatchObject({ status: 409, body: { error: { code: 'recipient_changed' } } });
    expect(await browser.post('/api/billing/recipient', { name: '  ', revision: 1 })).toMatchObject({
      status: 400,
      body: { error: { code: 'recipient_required' } },
    });
    const renamed = await browser.post('/api/billing/recipient', { name: 'Test Trading Co.', revision: 1 });
    expect(renamed).toMatchObject({ status: 200, body: { name: 'Test Trading Co.', revision: 2 } });
    const [issued] = (await invoices(browser)).invoices;
    expect((await receiptText(browser, issued?.id ?? '')).text).toContain('株式会社テスト商事様');
    await harness.advanceDays(30);
    const list = await invoices(browser);
    expect(list.recipient).toEqual({ name: 'Test Trading Co.', revision: 2 });
    expect(list.invoices).toHaveLength(3);
    expect((await receiptText(browser, list.invoices[0]?.id ?? '')).text).toContain('TestTradingCo.様');
  });

  it('serves every invoice as a CSV for search by date, amount and counterparty', async () => {
    const browser = members.down.browser;
    const list = await invoices(browser);
    const response = await harness.gateway.app.inject({
      method: 'GET',
      url: '/api/billing/invoices/csv',
      cookies: Object.fromEntries(browser.cookies),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.body.startsWith('\uFEFF取引年月日,請求書番号,取引先,登録番号,金額（税込）')).toBe(true);
    const rows = response.body
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(','));
    expect(rows).toHaveLength(list.invoices.length);
    const newest = list.invoices[0];
    expect(rows[0]).toEqual([
      tokyoDay(newest?.issued_at ?? ''),
      newest?.number,
      ISSUER.legalName.ja,
      ISSUER.registrationNumber,
      '980',
      'JPY',
      '980',
      '89',
      '',
      '',
      '',
      'paid',
      tokyoDay(newest?.paid_at ?? ''),
    ]);
  });

  it('finds no invoice of another account', async () => {
    const [theirs] = (await invoices(members.up.browser)).invoices;
    const response = await members.down.browser.get(`/api/billing/invoices/pdf?id=${theirs?.id}`);
    expect(response).toMatchObject({ status: 404, body: { error: { code: 'invoice_not_found' } } });
    expect(await members.down.browser.get('/api/billing/invoices/pdf?id=../x')).toMatchObject({
      status: 404,
    });
  });
});
