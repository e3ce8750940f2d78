import { CYCLE_DAYS, type Cycle, isPlanId, type PlanId, planName } from './plan-catalog.ts';
import { type Currency, cyclePrices, type PlanPrice, type PlanPrices } from './plan-prices.ts';

/**
 * What the payment provider sells, derived from the plan catalogue: one product per plan that can be
 * bought (2 to 11) and one per custom-plan add-on, each priced per cycle and currency. Amounts come
 * from configuration (docs/product.md#prices); names, cycles and the keys the provider finds them by
 * are fixed here so the price script and the billing service agree without talking to each other.
 */
export const BILLED_PLANS: readonly PlanId[] = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

/** Add-ons of the custom plan (custom-plan.ts), bought as quantities of one price each. */
export const ADDONS = ['sites_5', '10min', '1min', 'ss', 'mail', 'line'] as const;
export type Addon = (typeof ADDONS)[number];

export type AddonPrices = Partial<Record<Addon, Record<Cycle, PlanPrice>>>;

export const CURRENCIES: readonly Currency[] = ['JPY', 'USD'];
export const CYCLES: readonly Cycle[] = ['month', 'year'];

const ADDON_NAMES: Record<Addon, string> = {
  sites_5: 'Custom add-on: 5 more sites',
  '10min': 'Custom add-on: 10-minute interval',
  '1min': 'Custom add-on: 1-minute interval',
  ss: 'Custom add-on: screenshots',
  mail: 'Custom add-on: additional e-mail address',
  line: 'Custom add-on: chat notification',
};

export interface CatalogueProduct {
  /** Stable product id at the provider (`mimamori_plan_3`, `mimamori_addon_ss`). */
  productId: string;
  name: string;
  prices: CataloguePrice[];
}

export interface CataloguePrice {
  /** How the service finds the price: `plan3_month_jpy`, `addon_sites_5_year_usd`. */
  lookupKey: string;
  currency: Currency;
  cycle: Cycle;
  /** Smallest unit of the currency: whole yen, cents. */
  unitAmount: number;
  /** A 30- or 365-day cycle, not a calendar month or year. */
  intervalDays: number;
}

export function planLookupKey(plan: PlanId, cycle: Cycle, currency: Currency): string {
  return `plan${plan}_${cycle}_${currency.toLowerCase()}`;
}

export function addonLookupKey(addon: Addon, cycle: Cycle, currency: Currency): string {
  return `addon_${addon}_${cycle}_${currency.toLowerCase()}`;
}

/** Every product with the prices configuration gives it; a plan without a price is not sold. */
export function billingCatalogue(planPrices: PlanPrices, addonPrices: AddonPrices): CatalogueProduct[] {
  const priced = (
    table: Record<Cycle, PlanPrice> | undefined,
    key: (cycle: Cycle, currency: Currency) => string,
  ) =>
    table
      ? CYCLES.flatMap((cycle) =>
          CURRENCIES.map((currency) => ({
            lookupKey: key(cycle, currency),
            currency,
            cycle,
            unitAmount: table[cycle][currency],
            intervalDays: CYCLE_DAYS[cycle],
          })),
        )
      : [];
  return [
    ...BILLED_PLANS.map((plan) => ({
      productId: `mimamori_plan_${plan}`,
      // The provider's invoices and dashboard show the English name.
      name: planName(plan, 'en'),
      prices: priced(planPrices[plan], (cycle, currency) => planLookupKey(plan, cycle, currency)),
    })),
    ...ADDONS.map((addon) => ({
      productId: `mimamori_addon_${addon}`,
      name: ADDON_NAMES[addon],
      prices: priced(addonPrices[addon], (cycle, currency) => addonLookupKey(addon, cycle, currency)),
    })),
  ].filter((product) => product.prices.length > 0);
}

export interface SubscriptionLine {
  lookupKey: string;
  quantity: number;
}

/**
 * The provider's subscription items for a plan with its options: one line for the plan and, for the
 * custom plan, one per add-on with its quantity (a price may appear once on a subscription, so more of
 * an add-on is a larger quantity, never a second line). 1-minute wins over 10-minute, as in the quota.
 */
export function subscriptionLines(
  plan: PlanId,
  options: readonly string[],
  cycle: Cycle,
  currency: Currency,
): SubscriptionLine[] {
  const lines: SubscriptionLine[] = [{ lookupKey: planLookupKey(plan, cycle, currency), quantity: 1 }];
  if (plan !== 2) return lines;
  const counts = new Map<Addon, number>();
  for (const option of options) {
    const [name, count] = option.split(':');
    const amount = count === undefined ? 1 : Number(count);
    const addon: Addon | undefined =
      name === 'sites'
        ? 'sites_5'
        : (ADDONS as readonly string[]).includes(name ?? '')
          ? (name as Addon)
          : undefined;
    if (!addon || !Number.isInteger(amount) || amount < 0) throw new Error(`unknown custom option ${option}`);
    const single = addon !== 'sites_5' && addon !== 'mail';
    counts.set(addon, single ? 1 : (counts.get(addon) ?? 0) + amount);
  }
  if (counts.has('1min')) counts.delete('10min');
  for (const addon of ADDONS) {
    const quantity = counts.get(addon) ?? 0;
    if (quantity > 0) lines.push({ lookupKey: addonLookupKey(addon, cycle, currency), quantity });
  }
  return lines;
}

/** Reads `ADDON_PRICES`, shaped like the plan prices: `{"ss":{"month":{"JPY":300,"USD":200},"year":{…}}}`. */
export function parseAddonPrices(json: string): AddonPrices {
  const raw: unknown = JSON.parse(json);
  if (!raw || typeof raw !== 'object') throw new Error('add-on prices must be an object keyed by add-on');
  const prices: AddonPrices = {};
  for (const [key, cycles] of Object.entries(raw)) {
    if (!(ADDONS as readonly string[]).includes(key)) throw new Error(`add-on prices: unknown add-on ${key}`);
    prices[key as Addon] = cyclePrices(`add-on prices: ${key}`, cycles);
  }
  return prices;
}

/**
 * The plan a subscription's lines stand for, read back from their lookup keys; null when no line is
 * a plan of this catalogue (a price made by hand in the provider's dashboard, say).
 */
export function planFromLines(
  lines: readonly SubscriptionLine[],
): { plan: PlanId; cycle: Cycle; options: string[] } | null {
  let found: { plan: PlanId; cycle: Cycle } | null = null;
  const options: string[] = [];
  for (const { lookupKey, quantity } of lines) {
    const plan = /^plan(\d+)_(month|year)_[a-z]+$/.exec(lookupKey);
    if (plan && isPlanId(Number(plan[1]))) {
      found = { plan: Number(plan[1]) as PlanId, cycle: plan[2] as Cycle };
      continue;
    }
    const addon = /^addon_(.+)_(?:month|year)_[a-z]+$/.exec(lookupKey)?.[1];
    if (addon === 'sites_5') options.push(`sites:${quantity}`);
    else if (addon === 'mail') options.push(`mail:${quantity}`);
    else if (addon && (ADDONS as readonly string[]).includes(addon)) options.push(addon);
  }
  return found ? { ...found, options } : null;
}
