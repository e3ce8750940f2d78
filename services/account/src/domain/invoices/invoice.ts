import { type Currency, isPlanId, planName } from '@mimamori/plans';

/**
 * One invoice as the payment provider issued it (Stripe's invoice, read through InvoiceProvider).
 * Amounts are in the currency's smallest unit (yen, cents). Nothing here is edited after it is
 * issued: a receipt is drawn again from the same record each time (電子帳簿保存法: never edit an
 * issued document).
 */
export interface ProviderInvoice {
  id: string;
  /** The provider's invoice number, given when it was finalized. */
  number: string;
  issuedAt: Date;
  paidAt: Date | null;
  status: InvoiceStatus;
  currency: Currency;
  /** What the customer pays, tax included. */
  total: number;
  /** The recipient name the provider copied onto the invoice when it was issued; null when none was set. */
  recipient: string | null;
  lines: ProviderInvoiceLine[];
}

export type InvoiceStatus = 'paid' | 'open' | 'void' | 'uncollectible';

export interface ProviderInvoiceLine {
  /** The catalogue product it bills: `mimamori_plan_<id>` or `mimamori_addon_<name>`. */
  product: string;
  kind: 'charge' | 'proration' | 'trial';
  /** As the line's price makes it: tax included when its rate is inclusive. */
  amount: number;
  periodStart: Date;
  periodEnd: Date;
  /** The consumption tax rate on the line; null when none applies (customers abroad: 不課税). */
  taxRate: TaxRate | null;
}

export interface TaxRate {
  /** 10 (standard) or 8 (reduced); decimals allowed. */
  percentage: number;
  /** Whether the line's amount already holds the tax (総額表示: Japanese prices do). */
  inclusive: boolean;
}

/** One tax rate's part of an invoice: what it covers, tax included, and the tax in it. */
export interface RateTotal {
  /** null: lines with no consumption tax (不課税). */
  percentage: number | null;
  /** The rate's lines added up, tax included (税込対象額). */
  amount: number;
  /** Consumption tax for the rate, rounded once for the whole invoice. */
  tax: number;
}

/**
 * Tax per rate as インボイス制度 asks (NTA Q&A 問57): the lines of each rate are added up first,
 * and the tax of that sum rounded once, never line by line. Rounding is half up, as the payment
 * provider rounds its own tax figure, so the receipt and the provider's record agree. Inclusive
 * rates take the tax out of the amount (amount × p / (100 + p)); exclusive ones add it.
 */
export function taxPerRate(lines: readonly ProviderInvoiceLine[]): RateTotal[] {
  const groups = new Map<string, { rate: TaxRate | null; amount: number }>();
  for (const line of lines) {
    const key = line.taxRate ? `${line.taxRate.percentage}:${line.taxRate.inclusive}` : 'none';
    const group = groups.get(key) ?? { rate: line.taxRate, amount: 0 };
    group.amount += line.amount;
    groups.set(key, group);
  }
  return [...groups.values()]
    .map(({ rate, amount }) => {
      if (!rate) return { percentage: null, amount, tax: 0 };
      const tax = roundedShare(amount, rate);
      return { percentage: rate.percentage, amount: rate.inclusive ? amount : amount + tax, tax };
    })
    .sort((a, b) => (b.percentage ?? -1) - (a.percentage ?? -1));
}

function roundedShare(amount: number, rate: TaxRate): number {
  // Thousandths of a percent keep the arithmetic in integers: no float lands a yen off.
  const p = Math.round(rate.percentage * 1000);
  const base = rate.inclusive ? 100_000 + p : 100_000;
  const share = Math.floor((2 * Math.abs(amount) * p + base) / (2 * base));
  return amount < 0 ? -share : share;
}

export type InvoiceLanguage = 'ja' | 'en';

const ADDON_NAMES: Record<InvoiceLanguage, Record<string, string>> = {
  ja: {
    sites_5: 'カスタム追加：サイト5件',
    '10min': 'カスタム追加：10分間隔',
    '1min': 'カスタム追加：1分間隔',
    ss: 'カスタム追加：スクリーンショット',
    mail: 'カスタム追加：通知先メールアドレス',
    line: 'カスタム追加：チャット通知',
  },
  en: {
    sites_5: 'Custom add-on: 5 more sites',
    '10min': 'Custom add-on: 10-minute interval',
    '1min': 'Custom add-on: 1-minute interval',
    ss: 'Custom add-on: screenshots',
    mail: 'Custom add-on: additional e-mail address',
    line: 'Custom add-on: chat notification',
  },
};

const KIND_NOTE: Record<InvoiceLanguage, Record<ProviderInvoiceLine['kind'], string>> = {
  ja: { charge: '', proration: '（プラン変更の日割り）', trial: '（無料体験）' },
  en: { charge: '', proration: ' (prorated plan change)', trial: ' (free trial)' },
};

/** The line's description in the reader's language: the service, the plan or add-on, and why. */
export function lineDescription(line: ProviderInvoiceLine, lang: InvoiceLanguage): string {
  const service = lang === 'ja' ? 'みまもり' : 'Mimamori';
  const plan = /^mimamori_plan_(\d+)$/.exec(line.product);
  const addon = /^mimamori_addon_(.+)$/.exec(line.product);
  const planId = plan ? Number(plan[1]) : null;
  const name =
    planId !== null && isPlanId(planId)
      ? `${service} ${planName(planId, lang)}${lang === 'ja' ? 'プラン' : ' plan'}`
      : addon?.[1] && ADDON_NAMES[lang][addon[1]]
        ? `${service} ${ADDON_NAMES[lang][addon[1]]}`
        : `${service} ${line.product}`;
  return `${name}${KIND_NOTE[lang][line.kind]}`;
}

/** Who issues the invoices: the seller's legal name and its qualified-invoice registration number. */
export interface InvoiceIssuer {
  legalName: { ja: string; en: string };
  /** "T" and 13 digits (適格請求書発行事業者登録番号). */
  registrationNumber: string;
}

/** An invoice as the account page lists it. */
export interface InvoiceSummary {
  id: string;
  number: string;
  issuedAt: Date;
  paidAt: Date | null;
  status: InvoiceStatus;
  currency: Currency;
  total: number;
  rates: RateTotal[];
}

export function summarise(invoice: ProviderInvoice): InvoiceSummary {
  const { id, number, issuedAt, paidAt, status, currency, total } = invoice;
  return { id, number, issuedAt, paidAt, status, currency, total, rates: taxPerRate(invoice.lines) };
}

/**
 * The recipient a receipt names: the name the provider copied onto the invoice when it was issued,
 * so a later change does not rewrite an issued document; an invoice issued before any name was
 * entered takes the one entered since, and failing that the account's own name.
 */
export function recipientOf(invoice: ProviderInvoice, entered: string | null, accountName: string): string {
  return invoice.recipient?.trim() || entered?.trim() || accountName.trim();
}

/** Checks a recipient name (a person's or a company's) as typed on the account page. */
export function checkRecipientName(name: string): string | null {
  if (name.length === 0) return 'recipient_required';
  if (name.length > 100) return 'recipient_too_long';
  // Control characters would print as nothing on the receipt and hide what was typed.
  if (/\p{Cc}/u.test(name)) return 'recipient_invalid';
  return null;
}

/** Money as a receipt writes it: whole yen with a yen sign, dollars with cents. */
export function formatMoney(amount: number, currency: Currency): string {
  if (currency === 'JPY') return `¥${amount.toLocaleString('en-US')}`;
  const sign = amount < 0 ? '-' : '';
  return `${sign}US$${(Math.abs(amount) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
}

/** A date as 取引年月日: the calendar day in the account's time zone (Japan's when none is set). */
export function invoiceDate(at: Date, timezone: string | null): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone ?? 'Asia/Tokyo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}

const CSV_HEADER = [
  '取引年月日',
  '請求書番号',
  '取引先',
  '登録番号',
  '金額（税込）',
  '通貨',
  '10%対象（税込）',
  '10%消費税',
  '8%対象（税込）',
  '8%消費税',
  '不課税',
  '状態',
  '支払日',
];

/**
 * Every invoice as one CSV for 電子帳簿保存法's search by date, amount and counterparty: one row per
 * invoice, the counterparty (the seller) and its registration number on every row, the amounts per
 * rate in their own columns so a spreadsheet can filter ranges. UTF-8 with a BOM, CRLF lines, so
 * Excel in Japan opens it as written.
 */
export function invoicesCsv(
  invoices: readonly InvoiceSummary[],
  issuer: InvoiceIssuer,
  timezone: string | null,
): string {
  const rate = (summary: InvoiceSummary, percentage: number | null) =>
    summary.rates.find((each) => each.percentage === percentage);
  const money = (amount: number | undefined, currency: Currency) =>
    amount === undefined ? '' : currency === 'JPY' ? String(amount) : (amount / 100).toFixed(2);
  const rows = invoices.map((summary) => [
    invoiceDate(summary.issuedAt, timezone),
    summary.number,
    issuer.legalName.ja,
    issuer.registrationNumber,
    money(summary.total, summary.currency),
    summary.currency,
    money(rate(summary, 10)?.amount, summary.currency),
    money(rate(summary, 10)?.tax, summary.currency),
    money(rate(summary, 8)?.amount, summary.currency),
    money(rate(summary, 8)?.tax, summary.currency),
    money(rate(summary, null)?.amount, summary.currency),
    summary.status,
    summary.paidAt ? invoiceDate(summary.paidAt, timezone) : '',
  ]);
  const lines = [CSV_HEADER, ...rows].map((row) => row.map(csvField).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

function csvField(value: string): string {
  // A leading = + - @ would run as a formula in a spreadsheet; a quote and apostrophe keep it text.
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) || safe !== value ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A download's file name as 電子帳簿保存法 search by name expects: date_counterparty_amount. */
export function invoiceFileName(summary: InvoiceSummary, timezone: string | null): string {
  const date = invoiceDate(summary.issuedAt, timezone).replaceAll('-', '');
  const amount = summary.currency === 'JPY' ? String(summary.total) : (summary.total / 100).toFixed(2);
  return `${date}_Mimamori_${amount}${summary.currency === 'JPY' ? '' : 'USD'}_${summary.number}.pdf`;
}
