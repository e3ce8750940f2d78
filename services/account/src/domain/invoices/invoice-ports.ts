import type { ProviderInvoice } from './invoice.ts';
import type { Receipt } from './receipt.ts';

/** The payment provider's invoices (Stripe's in clients/stripe-invoices.ts). */
export interface InvoiceProvider {
  /** Every issued invoice of the customer, newest first; drafts are not issued and not listed. */
  list(customerId: string): Promise<ProviderInvoice[]>;
  /** One of the customer's invoices; null when there is none by that id or it is another customer's. */
  get(customerId: string, invoiceId: string): Promise<ProviderInvoice | null>;
  /** The name the provider copies onto each invoice it issues from now on. */
  setRecipient(customerId: string, name: string): Promise<void>;
}

/** The recipient name as entered, with the revision the account page read it at. */
export interface Recipient {
  name: string;
  revision: number;
}

export interface InvoiceStore {
  /** The provider's customer id for the account; null when billing never started for it. */
  customerOf(userId: string): Promise<string | null>;
  recipient(userId: string): Promise<Recipient | null>;
  /**
   * Saves the name if the stored revision is still `revision` (0: none saved yet); the new
   * revision, or null when someone saved in between (the page shows the newer one).
   */
  saveRecipient(userId: string, name: string, revision: number, at: Date): Promise<number | null>;
}

/** Draws one receipt as a PDF. */
export type ReceiptRenderer = (receipt: Receipt) => Promise<Uint8Array>;
