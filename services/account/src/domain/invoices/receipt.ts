import {
  formatMoney,
  type InvoiceIssuer,
  type InvoiceLanguage,
  invoiceDate,
  lineDescription,
  type ProviderInvoice,
  recipientOf,
  taxPerRate,
} from './invoice.ts';

/**
 * A receipt as printed: every field of a 適格請求書 (インボイス制度) in the reader's language,
 * ready to draw. Built from the provider's invoice alone, so drawing it again gives the same page.
 */
export interface Receipt {
  lang: InvoiceLanguage;
  title: string;
  /** Paid, unpaid or void, with the payment date when paid. */
  statusLine: string;
  fields: { label: string; value: string }[];
  lineHeader: [string, string, string];
  lines: [string, string, string][];
  rateHeader: [string, string, string];
  rates: [string, string, string][];
  totalLabel: string;
  total: string;
  notes: string[];
}

const TEXT = {
  ja: {
    title: '適格請求書（領収書）',
    paid: (date: string) => `お支払い済み（${date}）`,
    open: '未払い',
    void: '無効（取り消し済み）',
    uncollectible: '回収不能',
    recipient: '宛名',
    honorific: ' 様',
    issuer: '発行者',
    registration: '登録番号',
    number: '請求書番号',
    date: '取引年月日',
    lineHeader: ['内容', '期間', '金額（税込）'] as [string, string, string],
    rateHeader: ['税率', '対象金額（税込）', '消費税額'] as [string, string, string],
    rate: (percentage: number | null) => (percentage === null ? '不課税' : `${percentage}%`),
    total: '合計（税込）',
    rounding: '消費税額は税率ごとに合計した金額から一度だけ計算しています（1円未満四捨五入）。',
    abroad: '国外のお客様への電気通信利用役務の提供のため、消費税は課されません（不課税）。',
    period: (from: string, to: string) => `${from}〜${to}`,
  },
  en: {
    title: 'Qualified invoice (receipt)',
    paid: (date: string) => `Paid (${date})`,
    open: 'Unpaid',
    void: 'Void (cancelled)',
    uncollectible: 'Uncollectible',
    recipient: 'Bill to',
    honorific: '',
    issuer: 'Issuer',
    registration: 'Registration number',
    number: 'Invoice number',
    date: 'Transaction date',
    lineHeader: ['Description', 'Period', 'Amount (tax incl.)'] as [string, string, string],
    rateHeader: ['Tax rate', 'Amount (tax incl.)', 'Consumption tax'] as [string, string, string],
    rate: (percentage: number | null) => (percentage === null ? 'Not taxable' : `${percentage}%`),
    total: 'Total (tax incl.)',
    rounding:
      'Consumption tax is computed once per rate from the sum of that rate’s lines (rounded half up to the yen).',
    abroad: 'No Japanese consumption tax: a digital service supplied to a customer outside Japan.',
    period: (from: string, to: string) => `${from} – ${to}`,
  },
};

export function receiptOf(
  invoice: ProviderInvoice,
  context: {
    issuer: InvoiceIssuer;
    lang: InvoiceLanguage;
    timezone: string | null;
    enteredRecipient: string | null;
    accountName: string;
  },
): Receipt {
  const { issuer, lang, timezone } = context;
  const text = TEXT[lang];
  const day = (at: Date) => invoiceDate(at, timezone);
  const money = (amount: number) => formatMoney(amount, invoice.currency);
  const statusLine =
    invoice.status === 'paid'
      ? text.paid(day(invoice.paidAt ?? invoice.issuedAt))
      : invoice.status === 'open'
        ? text.open
        : text[invoice.status];
  const rates = taxPerRate(invoice.lines);
  const untaxed = rates.some((rate) => rate.percentage === null);
  return {
    lang,
    title: text.title,
    statusLine,
    fields: [
      {
        label: text.recipient,
        value: `${recipientOf(invoice, context.enteredRecipient, context.accountName)}${text.honorific}`,
      },
      { label: text.issuer, value: issuer.legalName[lang] },
      { label: text.registration, value: issuer.registrationNumber },
      { label: text.number, value: invoice.number },
      { label: text.date, value: day(invoice.issuedAt) },
    ],
    lineHeader: text.lineHeader,
    lines: invoice.lines.map((line) => [
      lineDescription(line, lang),
      text.period(day(line.periodStart), day(line.periodEnd)),
      money(line.amount),
    ]),
    rateHeader: text.rateHeader,
    rates: rates.map((rate) => [text.rate(rate.percentage), money(rate.amount), money(rate.tax)]),
    totalLabel: text.total,
    total: money(invoice.total),
    notes: [text.rounding, ...(untaxed ? [text.abroad] : [])],
  };
}
