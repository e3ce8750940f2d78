import type { Billing, PlanChangeTiming, PlanChoice } from '../api/billing.ts';

/** The subscription statuses the screens react to (docs/product.md#subscription). */
export const BillingStatus = { trial: 1, active: 2, renewalFailed: 6, onHold: 7, ended: 9 } as const;

/**
 * Plan change and cancel need a subscription in good standing (docs/product.md#subscription: renew
 * first after a failed payment or a hold); the screens say so instead of offering a refused action.
 */
export function inGoodStanding(billing: Pick<Billing, 'status'>): boolean {
  return billing.status === BillingStatus.trial || billing.status === BillingStatus.active;
}

/** During the trial a change applies at once; afterwards the user chooses. */
export function timingChoices(billing: Pick<Billing, 'status'>): PlanChangeTiming[] {
  return billing.status === BillingStatus.trial ? ['now'] : ['now', 'renewal'];
}

export function canCancel(billing: Pick<Billing, 'status' | 'cancel_at_period_end'>): boolean {
  return inGoodStanding(billing) && !billing.cancel_at_period_end;
}

/** Undo is possible until the paid period ends, on billing's clock (`at`), while the subscription lasts. */
export function canUndoCancel(
  billing: Pick<Billing, 'status' | 'cancel_at_period_end' | 'period_end' | 'at'>,
): boolean {
  if (!billing.cancel_at_period_end || !inGoodStanding(billing)) return false;
  return billing.period_end === null || new Date(billing.period_end) > new Date(billing.at);
}

/** Reprocess pays what is open with the card on file: only after a failed renewal or a hold. */
export function canReprocess(billing: Pick<Billing, 'status' | 'card'>): boolean {
  return (
    billing.card !== null &&
    (billing.status === BillingStatus.renewalFailed || billing.status === BillingStatus.onHold)
  );
}

export function samePlanChoice(a: PlanChoice, b: PlanChoice): boolean {
  if (a.plan !== b.plan || a.cycle !== b.cycle) return false;
  const sorted = (options: string[]) => [...options].sort().join(',');
  return sorted(a.options) === sorted(b.options);
}

/** "04/2031": a card's expiry as printed on it. */
export function cardExpiry(card: { exp_month: number; exp_year: number }): string {
  return `${String(card.exp_month).padStart(2, '0')}/${card.exp_year}`;
}

/** The catalogue key of a status; `none` for one the screens do not name. */
export function statusKey(
  status: number,
): 'trial' | 'active' | 'renewalFailed' | 'onHold' | 'ended' | 'none' {
  switch (status) {
    case BillingStatus.trial:
      return 'trial';
    case BillingStatus.active:
      return 'active';
    case BillingStatus.renewalFailed:
      return 'renewalFailed';
    case BillingStatus.onHold:
      return 'onHold';
    case BillingStatus.ended:
      return 'ended';
    default:
      return 'none';
  }
}

/** Stripe names brands in lower case (`visa`, `amex`); the card shows them as printed. */
export function brandName(brand: string): string {
  const names: Record<string, string> = {
    visa: 'Visa',
    mastercard: 'Mastercard',
    amex: 'American Express',
    jcb: 'JCB',
    diners: 'Diners Club',
    discover: 'Discover',
    unionpay: 'UnionPay',
  };
  return names[brand] ?? brand;
}
