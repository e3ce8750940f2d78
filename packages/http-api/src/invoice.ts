import { z } from 'zod';
import { csrfFailed, refusal, signedOut } from './api-error.ts';

// Receipts (docs/billing.md#receipts): the payment provider's invoices as qualified invoices
// (適格請求書), one PDF each, and a CSV of all of them for 電子帳簿保存法.

export const rateTotal = z.object({
  percentage: z.number().nullable().describe('The consumption tax rate in percent; null: no tax (不課税)'),
  amount: z.number().int().describe('The rate’s lines added up, tax included'),
  tax: z.number().int().describe('The consumption tax of the rate, rounded once for the invoice'),
});
export type RateTotal = z.infer<typeof rateTotal>;

export const invoiceEntry = z.object({
  id: z.string(),
  number: z.string().describe('The invoice number the payment provider gave it'),
  issued_at: z.iso.datetime().describe('When it was issued (取引年月日)'),
  paid_at: z.iso.datetime().nullable(),
  status: z.string().describe('paid, open, void or uncollectible'),
  currency: z.string().describe('JPY (yen) or USD (cents)'),
  total: z.number().int().describe('What is paid, tax included'),
  rates: z.array(rateTotal),
});
export type InvoiceEntry = z.infer<typeof invoiceEntry>;

export const invoiceRecipient = z.object({
  name: z.string().describe('The name or company receipts are made out to; empty until entered'),
  revision: z.number().int().describe('Send it back with a change; 0 before the first save'),
});
export type InvoiceRecipient = z.infer<typeof invoiceRecipient>;

/** GET /api/billing/invoices */
export const invoiceList = z
  .object({ invoices: z.array(invoiceEntry), recipient: invoiceRecipient })
  .meta({ id: 'InvoiceList' });
export type InvoiceList = z.infer<typeof invoiceList>;

export const receiptQuery = z.object({
  id: z.string().describe('The invoice id'),
  lang: z.enum(['ja', 'en']).optional().describe('The receipt’s language; the account’s when absent'),
});

export const recipientBody = z
  .object({
    name: z.string().nullish().describe('At most 100 characters'),
    revision: z.number().int().nullish().describe('The revision the page read'),
  })
  .nullish();
export type RecipientBody = NonNullable<z.input<typeof recipientBody>>;

export const invoiceRefusals = {
  signedOut,
  csrf: csrfFailed,
  notFound: refusal('No such invoice of the account', ['invoice_not_found']),
  query: refusal('Malformed request', ['bad_request']),
  recipient: refusal('Refused', [
    'recipient_required',
    'recipient_too_long',
    'recipient_invalid',
    'bad_request',
  ]),
  changed: refusal('Changed meanwhile: read it again', ['recipient_changed']),
};
