import { type Currency, formatPrice } from '@mimamori/plans';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { INVOICES_CSV_URL, type InvoiceEntry, type InvoiceRecipient, receiptUrl } from '../api/invoices.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { errorCode, useErrorText } from '../forms/use-error-text.ts';
import { useFocusAfterSubmit } from '../forms/use-focus-after-submit.ts';
import { useInvoices, useSaveInvoiceRecipient } from '../hooks/use-invoices.ts';
import { LoadingIndicator } from '../shell/loading-indicator.tsx';
import './receipts.css';

const RECIPIENT_CODES = new Set(['recipient_required', 'recipient_too_long', 'recipient_invalid']);

/**
 * Receipts (docs/billing.md#receipts): the name they are made out to, every invoice with its tax
 * per rate and a PDF qualified invoice each, and all of them as one CSV.
 */
export function ReceiptsPanel({ timeZone }: { timeZone: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const invoices = useInvoices();
  return (
    <div className="receipts-panel" data-testid="receipts">
      <p className="lead">{t('receipts.lead')}</p>
      {invoices.isPending && <LoadingIndicator />}
      {invoices.isError && <FormMessage tone="error" message={errorText(invoices.error)} />}
      {invoices.isSuccess && (
        <>
          <RecipientForm recipient={invoices.data.recipient} />
          <h3 className="receipts-subtitle">{t('receipts.listTitle')}</h3>
          {invoices.data.invoices.length === 0 ? (
            <p className="muted">{t('receipts.none')}</p>
          ) : (
            <>
              <ul className="receipt-list">
                {invoices.data.invoices.map((invoice) => (
                  <InvoiceRow key={invoice.id} invoice={invoice} timeZone={timeZone} />
                ))}
              </ul>
              <p>
                <a className="button receipts-csv" href={INVOICES_CSV_URL} download>
                  {t('receipts.csv')}
                </a>
              </p>
              <p className="muted receipts-note">{t('receipts.csvNote')}</p>
            </>
          )}
        </>
      )}
    </div>
  );
}

function RecipientForm({ recipient }: { recipient: InvoiceRecipient }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const save = useSaveInvoiceRecipient();
  const { container, focusResult } = useFocusAfterSubmit<HTMLFormElement>();
  const [name, setName] = useState(recipient.name);
  // A save elsewhere (another tab) shows here once the list is read again.
  useEffect(() => setName(recipient.name), [recipient.name]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ name: name.trim(), revision: recipient.revision }, { onSettled: focusResult });
  };
  const code = errorCode(save.error);
  const fieldError = code && RECIPIENT_CODES.has(code) ? errorText(code) : undefined;
  return (
    <form ref={container} className="form inline-form" noValidate onSubmit={submit}>
      {save.isSuccess && <FormMessage tone="success" message={t('account.saved')} />}
      {save.isError && !fieldError && <FormMessage tone="error" message={errorText(save.error)} />}
      <TextField
        id="receipt-recipient"
        label={t('receipts.recipient')}
        hint={t('receipts.recipientHint')}
        autoComplete="organization"
        value={name}
        onChange={setName}
        error={fieldError}
      />
      <button type="submit" className="button" disabled={save.isPending}>
        {save.isPending ? t('actions.saving') : t('actions.save')}
      </button>
    </form>
  );
}

function InvoiceRow({ invoice, timeZone }: { invoice: InvoiceEntry; timeZone: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'ja';
  const money = (amount: number) => formatPrice(amount, invoice.currency as Currency);
  const day = (iso: string) => formatDay(iso, lang, timeZone);
  const status = ['paid', 'open', 'void', 'uncollectible'].includes(invoice.status) ? invoice.status : 'open';
  return (
    <li className="receipt-row" data-testid="receipt-row">
      <div className="receipt-head">
        <span className="receipt-date">{day(invoice.issued_at)}</span>
        <span className="receipt-total">{money(invoice.total)}</span>
        <span className={`receipt-status receipt-status-${status}`}>
          {t(`receipts.status.${status as 'paid'}`)}
        </span>
      </div>
      <p className="muted receipt-number">{t('receipts.number', { number: invoice.number })}</p>
      <ul className="receipt-rates">
        {invoice.rates.map((rate) => (
          <li key={String(rate.percentage)}>
            {rate.percentage === null
              ? t('receipts.untaxed', { amount: money(rate.amount) })
              : t('receipts.rate', {
                  rate: rate.percentage,
                  amount: money(rate.amount),
                  tax: money(rate.tax),
                })}
          </li>
        ))}
      </ul>
      <a className="receipt-download" href={receiptUrl(invoice.id, lang)} download>
        {t('receipts.pdf', { date: day(invoice.issued_at) })}
      </a>
    </li>
  );
}

/** The calendar day in the user's zone, as the receipt dates it (Japan's when none is chosen). */
function formatDay(iso: string, lang: string, timeZone: string): string {
  const options: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };
  try {
    return new Intl.DateTimeFormat(lang, { ...options, timeZone: timeZone || 'Asia/Tokyo' }).format(
      new Date(iso),
    );
  } catch {
    return new Intl.DateTimeFormat(lang, options).format(new Date(iso));
  }
}
