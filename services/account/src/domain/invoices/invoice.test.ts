import { describe, expect, it } from 'vitest';
import { invoicesCsv, lineDescription, type ProviderInvoiceLine, summarise, taxPerRate } from './invoice.ts';

const JCT = { percentage: 10, inclusive: true };
const line = (amount: number, taxRate: ProviderInvoiceLine['taxRate'] = JCT): ProviderInvoiceLine => ({
  product: 'mimamori_plan_3',
  kind: 'charge',
  amount,
  periodStart: new Date('2026-12-01T00:00:00Z'),
  periodEnd: new Date('2026-12-31T00:00:00Z'),
  taxRate,
});

describe('tax per rate', () => {
  it('rounds each rate once: exact, down, up', () => {
    expect(taxPerRate([line(1100)])).toEqual([{ percentage: 10, amount: 1100, tax: 100 }]);
    // 89.09 and 270.91
    expect(taxPerRate([line(980)])[0]?.tax).toBe(89);
    expect(taxPerRate([line(2980)])[0]?.tax).toBe(271);
  });

  it('adds a rate’s lines up before rounding, never line by line', () => {
    // 3 × 105 = 315 → 28.64 → 29; rounded per line: 3 × 9.55 → 3 × 10 = 30.
    expect(taxPerRate([line(105), line(105), line(105)])).toEqual([{ percentage: 10, amount: 315, tax: 29 }]);
    // The reference's exclusive example: 3 × 105 at 10% → 31.5 → 32 half up (per line 3 × 11 = 33).
    const exclusive = { percentage: 10, inclusive: false };
    expect(taxPerRate([line(105, exclusive), line(105, exclusive), line(105, exclusive)])).toEqual([
      { percentage: 10, amount: 347, tax: 32 },
    ]);
  });

  it('keeps rates apart, the standard rate first, and untaxed lines as their own group', () => {
    const reduced = { percentage: 8, inclusive: true };
    expect(taxPerRate([line(540, reduced), line(1100), line(700, null)])).toEqual([
      { percentage: 10, amount: 1100, tax: 100 },
      { percentage: 8, amount: 540, tax: 40 },
      { percentage: null, amount: 700, tax: 0 },
    ]);
  });

  it('takes a credit’s tax back the same way', () => {
    expect(taxPerRate([line(2980), line(-980)])).toEqual([{ percentage: 10, amount: 2000, tax: 182 }]);
  });
});

describe('the CSV of invoices', () => {
  it('writes one row per invoice with amounts per rate, and keeps a formula-looking name text', () => {
    const invoice = summarise({
      id: 'in_1',
      number: 'ABC-0001',
      issuedAt: new Date('2026-12-01T16:00:00Z'),
      paidAt: new Date('2026-12-01T16:00:05Z'),
      status: 'paid',
      currency: 'JPY',
      total: 980,
      recipient: null,
      lines: [line(980)],
    });
    const csv = invoicesCsv(
      [invoice],
      { legalName: { ja: '=HYPERLINK("x")', en: 'x' }, registrationNumber: 'T7123456789012' },
      null,
    );
    expect(csv.split('\r\n')[1]).toBe(
      `2026-12-02,ABC-0001,"'=HYPERLINK(""x"")",T7123456789012,980,JPY,980,89,,,,paid,2026-12-02`,
    );
  });
});

describe('line descriptions', () => {
  it('names the plan or add-on in the reader’s language, and why', () => {
    expect(lineDescription(line(980), 'ja')).toBe('みまもり ベーシック5プラン');
    expect(lineDescription({ ...line(300), product: 'mimamori_addon_ss', kind: 'proration' }, 'en')).toBe(
      'Mimamori Custom add-on: screenshots (prorated plan change)',
    );
  });
});
