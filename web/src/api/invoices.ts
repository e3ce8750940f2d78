import type { InvoiceList, InvoiceRecipient } from '@mimamori/http-api';
import { apiRequest } from './client.ts';

export type { InvoiceEntry, InvoiceList, InvoiceRecipient, RateTotal } from '@mimamori/http-api';

/** GET /api/billing/invoices: every invoice of the account, newest first, and the recipient name. */
export function fetchInvoices(signal?: AbortSignal): Promise<InvoiceList> {
  return apiRequest<InvoiceList>('/api/billing/invoices', signal ? { signal } : {});
}

export function saveInvoiceRecipient(input: InvoiceRecipient): Promise<InvoiceRecipient> {
  return apiRequest('/api/billing/recipient', { method: 'POST', body: input });
}

/** Where a receipt downloads from: a plain link, so the browser saves it under the gateway's file name. */
export function receiptUrl(id: string, lang: 'ja' | 'en'): string {
  return `/api/billing/invoices/pdf?${new URLSearchParams({ id, lang })}`;
}

export const INVOICES_CSV_URL = '/api/billing/invoices/csv';
