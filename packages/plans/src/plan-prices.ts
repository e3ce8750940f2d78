import { type Cycle, isPlanId, type PlanId } from './plan-catalog.ts';

export type Currency = 'JPY' | 'USD';

/** Yen in whole units, dollars in cents (docs/product.md#prices). */
export interface PlanPrice {
  JPY: number;
  USD: number;
}

export type PlanPrices = Partial<Record<PlanId, Record<Cycle, PlanPrice>>>;

export function isCurrency(value: string): value is Currency {
  return value === 'JPY' || value === 'USD';
}

/**
 * Reads the price table held in configuration (docs/product.md#prices: not in code), e.g.
 * `{"3":{"month":{"JPY":980,"USD":700},"year":{"JPY":9800,"USD":7000}}}`.
 */
export function parsePlanPrices(json: string): PlanPrices {
  const raw: unknown = JSON.parse(json);
  if (!raw || typeof raw !== 'object') throw new Error('plan prices must be an object keyed by plan id');
  const prices: PlanPrices = {};
  for (const [key, cycles] of Object.entries(raw)) {
    const plan = Number(key);
    if (!isPlanId(plan)) throw new Error(`plan prices: unknown plan id ${key}`);
    prices[plan] = cyclePrices(`plan prices: plan ${key}`, cycles);
  }
  return prices;
}

/** Both cycles of one priced thing (a plan, an add-on), each in whole yen and US cents. */
export function cyclePrices(label: string, cycles: unknown): Record<Cycle, PlanPrice> {
  const table = cycles as Record<string, Record<string, unknown>> | undefined;
  const price = (cycle: Cycle): PlanPrice => {
    const jpy = table?.[cycle]?.JPY;
    const usd = table?.[cycle]?.USD;
    if (!Number.isInteger(jpy) || !Number.isInteger(usd) || (jpy as number) < 0 || (usd as number) < 0) {
      throw new Error(`${label} ${cycle} needs whole JPY and USD cent amounts`);
    }
    return { JPY: jpy as number, USD: usd as number };
  };
  return { month: price('month'), year: price('year') };
}

/** The price in the currency's smallest display unit; 0 when the plan has no configured price. */
export function planPrice(prices: PlanPrices, plan: PlanId, cycle: Cycle, currency: Currency): number {
  return prices[plan]?.[cycle][currency] ?? 0;
}

/** Yen as whole units; other currencies are cents shown as dollars (docs/product.md#prices). */
export function formatPrice(amount: number, currency: Currency): string {
  return currency === 'JPY' ? `¥${amount.toLocaleString('en-US')}` : `$${(amount / 100).toFixed(2)}`;
}
