import type { invoiceV1 } from '@mimamori/contracts';
import { unaryHandler } from '@mimamori/service-host';
import type { AccountDeps } from '../domain/account-deps.ts';
import type { InvoiceSummary } from '../domain/invoices/invoice.ts';
import type { InvoiceActions } from '../domain/invoices/invoice-actions.ts';
import type { Recipient } from '../domain/invoices/invoice-ports.ts';
import { requireUser } from '../domain/sessions.ts';
import { answering } from './problem-status.ts';

/** Receipts over gRPC; each call reads the session's own account only. */
export function invoiceServer(
  invoices: InvoiceActions,
  deps: Pick<AccountDeps, 'accounts' | 'clock'>,
): invoiceV1.InvoiceServiceServer {
  const rpc = <Req, Res>(work: (request: Req) => Promise<Res>) =>
    unaryHandler((request: Req) => answering(() => work(request)));
  const user = (request: { sessionToken: string }) => requireUser(request.sessionToken, deps);
  return {
    listInvoices: rpc(async (request: invoiceV1.ListInvoicesRequest) => {
      const { invoices: list, recipient } = await invoices.list(await user(request));
      return { invoices: list.map(toInvoice), recipient: toRecipient(recipient) };
    }),
    getReceiptPdf: rpc(async (request: invoiceV1.GetReceiptPdfRequest) => {
      const lang = request.lang === 'ja' || request.lang === 'en' ? request.lang : null;
      const { fileName, pdf } = await invoices.pdf(await user(request), request.invoiceId, lang);
      return { fileName, pdf: Buffer.from(pdf) };
    }),
    getInvoicesCsv: rpc(async (request: invoiceV1.GetInvoicesCsvRequest) => ({
      csv: await invoices.csv(await user(request)),
    })),
    setInvoiceRecipient: rpc(async (request: invoiceV1.SetInvoiceRecipientRequest) => ({
      recipient: toRecipient(
        await invoices.setRecipient(await user(request), request.name, Number(request.revision)),
      ),
    })),
  };
}

function toInvoice(summary: InvoiceSummary): invoiceV1.Invoice {
  return {
    id: summary.id,
    number: summary.number,
    issuedAt: summary.issuedAt,
    paidAt: summary.paidAt ?? undefined,
    status: summary.status,
    currency: summary.currency,
    total: summary.total,
    rates: summary.rates.map((rate) => ({
      ...(rate.percentage === null ? {} : { percentage: rate.percentage }),
      amount: rate.amount,
      tax: rate.tax,
    })),
  };
}

function toRecipient(recipient: Recipient | null): invoiceV1.InvoiceRecipient {
  return recipient ?? { name: '', revision: 0 };
}
