import type { invoiceV1 } from '@mimamori/contracts';
import {
  type InvoiceEntry,
  invoiceList,
  invoiceRefusals,
  receiptQuery,
  recipientBody,
} from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendApiError } from './api-error.ts';
import { accountWork } from './auth-routes.ts';
import { requestShapeProblem, sendShapeProblem } from './request-shape.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

const { signedOut, csrf } = invoiceRefusals;
const security = [{ session: [] }];
const binary = z.instanceof(Buffer).meta({ type: 'string', format: 'binary' });

/**
 * Receipts (docs/billing.md#receipts): the account's invoices, each as a PDF qualified invoice, all
 * of them as one CSV, and the recipient name they are made out to. The account service reads only
 * the session's own account.
 */
export function invoiceRoutes(app: FastifyInstance, deps: { invoices: invoiceV1.InvoiceServiceClient }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { invoices } = deps;
  const session = (request: FastifyRequest) => request.cookies[SESSION_COOKIE] ?? '';

  api.get(
    '/api/billing/invoices',
    {
      schema: {
        summary: 'Every invoice of the account, newest first, with tax per rate; and the recipient name',
        security,
        response: { 200: invoiceList, 401: signedOut },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(invoices, 'listInvoices', { sessionToken: session(request) });
        return reply.send({
          invoices: answer.invoices.map(toInvoiceJson),
          recipient: { name: answer.recipient?.name ?? '', revision: answer.recipient?.revision ?? 0 },
        });
      }),
  );

  api.get(
    '/api/billing/invoices/pdf',
    {
      attachValidation: true,
      schema: {
        summary: 'One invoice as a PDF qualified invoice (適格請求書) with every field the law asks',
        security,
        querystring: receiptQuery,
        response: {
          200: { description: 'The receipt (PDF)', content: { 'application/pdf': { schema: binary } } },
          400: invoiceRefusals.query,
          401: signedOut,
          404: invoiceRefusals.notFound,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        if (!session(request)) return sendApiError(reply, 401, 'unauthenticated');
        const problem = requestShapeProblem(request);
        if (problem) return sendShapeProblem(reply, problem);
        const answer = await unary(invoices, 'getReceiptPdf', {
          sessionToken: session(request),
          invoiceId: request.query.id,
          lang: request.query.lang ?? '',
        });
        return reply
          .header('content-disposition', attachment(answer.fileName))
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          .type('application/pdf')
          .send(Buffer.from(answer.pdf));
      }),
  );

  api.get(
    '/api/billing/invoices/csv',
    {
      schema: {
        summary:
          'Every invoice as one CSV (UTF-8, BOM) for search by date, amount and counterparty (電子帳簿保存法)',
        security,
        response: {
          200: { description: 'The invoices (CSV)', content: { 'text/csv': { schema: z.string() } } },
          401: signedOut,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(invoices, 'getInvoicesCsv', { sessionToken: session(request) });
        return reply
          .header('content-disposition', attachment('mimamori-invoices.csv'))
          .header('cache-control', 'private, no-store')
          .type('text/csv; charset=utf-8')
          .send(answer.csv);
      }),
  );

  api.post(
    '/api/billing/recipient',
    {
      schema: {
        summary: 'Save the name or company receipts are made out to; invoices issued from now on carry it',
        security,
        body: recipientBody,
        response: {
          200: invoiceList.shape.recipient,
          400: invoiceRefusals.recipient,
          401: signedOut,
          403: csrf,
          409: invoiceRefusals.changed,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(invoices, 'setInvoiceRecipient', {
          sessionToken: session(request),
          name: request.body?.name ?? '',
          revision: request.body?.revision ?? 0,
        });
        return reply.send({ name: answer.recipient?.name ?? '', revision: answer.recipient?.revision ?? 0 });
      }),
  );
}

function attachment(fileName: string): string {
  // The ASCII fallback for old clients, the exact name (RFC 6266/5987) for the rest.
  const ascii = fileName.replace(/[^\w.-]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

function toInvoiceJson(invoice: invoiceV1.Invoice): InvoiceEntry {
  return {
    id: invoice.id,
    number: invoice.number,
    issued_at: (invoice.issuedAt ?? new Date(0)).toISOString(),
    paid_at: invoice.paidAt ? invoice.paidAt.toISOString() : null,
    status: invoice.status,
    currency: invoice.currency,
    total: invoice.total,
    rates: invoice.rates.map((rate) => ({
      percentage: rate.percentage ?? null,
      amount: rate.amount,
      tax: rate.tax,
    })),
  };
}
