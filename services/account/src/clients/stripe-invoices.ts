import type { Currency } from '@mimamori/plans';
import type Stripe from 'stripe';
import type {
  InvoiceStatus,
  ProviderInvoice,
  ProviderInvoiceLine,
  TaxRate,
} from '../domain/invoices/invoice.ts';
import type { InvoiceProvider } from '../domain/invoices/invoice-ports.ts';

const ISSUED: readonly string[] = ['paid', 'open', 'void', 'uncollectible'];

/**
 * Invoices on Stripe: what its invoices say, in the product's words. The tax rates a line names are
 * read once each and kept (a tax rate's percentage never changes on Stripe).
 */
export function stripeInvoices(stripe: Stripe): InvoiceProvider {
  const rates = new Map<string, Promise<TaxRate>>();
  const rateOf = (id: string) => {
    let rate = rates.get(id);
    if (!rate) {
      rate = stripe.taxRates.retrieve(id).then((found) => ({
        percentage: found.percentage,
        inclusive: found.inclusive,
      }));
      rate.catch(() => rates.delete(id));
      rates.set(id, rate);
    }
    return rate;
  };

  const toInvoice = async (invoice: Stripe.Invoice): Promise<ProviderInvoice> => ({
    id: invoice.id as string,
    number: invoice.number ?? (invoice.id as string),
    issuedAt: seconds(invoice.status_transitions.finalized_at ?? invoice.created),
    paidAt: invoice.status_transitions.paid_at ? seconds(invoice.status_transitions.paid_at) : null,
    status: invoice.status as InvoiceStatus,
    currency: invoice.currency.toUpperCase() as Currency,
    total: invoice.total,
    recipient: invoice.customer_name ?? null,
    lines: await Promise.all(invoice.lines.data.map(toLine)),
  });

  const toLine = async (line: Stripe.InvoiceLineItem): Promise<ProviderInvoiceLine> => {
    const details = line.parent?.subscription_item_details;
    const rateId = line.taxes?.find((tax) => tax.tax_rate_details)?.tax_rate_details?.tax_rate;
    return {
      product: line.pricing?.price_details?.product ?? '',
      kind: details?.proration ? 'proration' : line.amount === 0 ? 'trial' : 'charge',
      amount: line.amount,
      periodStart: seconds(line.period.start),
      periodEnd: seconds(line.period.end),
      taxRate: rateId ? await rateOf(rateId) : null,
    };
  };

  return {
    async list(customerId) {
      const found: ProviderInvoice[] = [];
      for await (const invoice of stripe.invoices.list({ customer: customerId, limit: 100 })) {
        if (ISSUED.includes(String(invoice.status))) found.push(await toInvoice(invoice));
      }
      return found.sort(
        (a, b) => b.issuedAt.getTime() - a.issuedAt.getTime() || b.number.localeCompare(a.number),
      );
    },

    async get(customerId, invoiceId) {
      try {
        const invoice = await stripe.invoices.retrieve(invoiceId);
        const owner = typeof invoice.customer === 'string' ? invoice.customer : invoice.customer?.id;
        if (owner !== customerId || !ISSUED.includes(String(invoice.status))) return null;
        return await toInvoice(invoice);
      } catch (error) {
        if ((error as { code?: string }).code === 'resource_missing') return null;
        throw error;
      }
    },

    async setRecipient(customerId, name) {
      await stripe.customers.update(customerId, { name });
    },
  };
}

function seconds(unix: number): Date {
  return new Date(unix * 1000);
}
