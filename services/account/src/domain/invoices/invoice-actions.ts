import type { AccountDeps } from '../account-deps.ts';
import { AccountProblem, refuseIf } from '../account-problem.ts';
import { loadOwnAccount } from '../account-settings.ts';
import {
  checkRecipientName,
  type InvoiceIssuer,
  type InvoiceLanguage,
  type InvoiceSummary,
  invoiceFileName,
  invoicesCsv,
  summarise,
} from './invoice.ts';
import type { InvoiceProvider, InvoiceStore, ReceiptRenderer, Recipient } from './invoice-ports.ts';
import { receiptOf } from './receipt.ts';

/** Stripe's invoice ids; anything else is no invoice of anyone's and is never sent on. */
const INVOICE_ID = /^in_[A-Za-z0-9]{1,64}$/;

export interface InvoiceDeps extends Pick<AccountDeps, 'accounts' | 'clock'> {
  /** Null when billing is off: no invoices exist, the recipient can still be entered. */
  provider: InvoiceProvider | null;
  store: InvoiceStore;
  issuer: InvoiceIssuer;
  render: ReceiptRenderer;
}

/** The account page's receipts: every invoice the provider issued to the account, and the recipient name. */
export function invoiceActions(deps: InvoiceDeps) {
  const invoicesOf = async (userId: string) => {
    const customerId = await deps.store.customerOf(userId);
    if (!customerId || !deps.provider) return [];
    return (await deps.provider.list(customerId)).map(summarise);
  };

  return {
    async list(userId: string): Promise<{ invoices: InvoiceSummary[]; recipient: Recipient | null }> {
      await loadOwnAccount(userId, deps);
      const [invoices, recipient] = await Promise.all([invoicesOf(userId), deps.store.recipient(userId)]);
      return { invoices, recipient };
    },

    async csv(userId: string): Promise<string> {
      const account = await loadOwnAccount(userId, deps);
      return invoicesCsv(await invoicesOf(userId), deps.issuer, account.timezone);
    },

    /** One receipt as a PDF, with the file name 電子帳簿保存法's search by name expects. */
    async pdf(
      userId: string,
      invoiceId: string,
      lang: InvoiceLanguage | null,
    ): Promise<{ fileName: string; pdf: Uint8Array }> {
      const account = await loadOwnAccount(userId, deps);
      const customerId = await deps.store.customerOf(userId);
      const invoice =
        customerId && deps.provider && INVOICE_ID.test(invoiceId)
          ? await deps.provider.get(customerId, invoiceId)
          : null;
      if (!invoice) throw new AccountProblem('not_found', 'invoice_not_found');
      const entered = await deps.store.recipient(userId);
      const receipt = receiptOf(invoice, {
        issuer: deps.issuer,
        lang: lang ?? account.lang,
        timezone: account.timezone,
        enteredRecipient: entered?.name ?? null,
        accountName: account.name || (account.email ?? ''),
      });
      return {
        fileName: invoiceFileName(summarise(invoice), account.timezone),
        pdf: await deps.render(receipt),
      };
    },

    /**
     * Saves the recipient name and gives it to the provider, which prints it on every invoice it
     * issues from then on; invoices already issued keep the name they were issued with.
     */
    async setRecipient(userId: string, name: string, revision: number): Promise<Recipient> {
      await loadOwnAccount(userId, deps);
      const trimmed = name.trim();
      refuseIf(checkRecipientName(trimmed));
      const saved = await deps.store.saveRecipient(userId, trimmed, revision, deps.clock.now());
      if (saved === null) throw new AccountProblem('precondition', 'recipient_changed');
      const customerId = await deps.store.customerOf(userId);
      if (customerId && deps.provider) await deps.provider.setRecipient(customerId, trimmed);
      return { name: trimmed, revision: saved };
    },
  };
}

export type InvoiceActions = ReturnType<typeof invoiceActions>;
