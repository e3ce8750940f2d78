import { describe, expect, it } from 'vitest';
import { billingCatalogue, subscriptionLines } from './billing-catalog.ts';
import { includedConsumptionTax, linesAmount } from './consumption-tax.ts';

describe('the consumption tax inside a price', () => {
  it('is 10/110 of the yen amount, rounded down', () => {
    expect(includedConsumptionTax(1100, 'JPY')).toBe(100);
    expect(includedConsumptionTax(980, 'JPY')).toBe(89);
    expect(includedConsumptionTax(9800, 'JPY')).toBe(890);
    expect(includedConsumptionTax(109, 'JPY')).toBe(9);
    expect(includedConsumptionTax(0, 'JPY')).toBe(0);
  });

  it('is none for dollar prices, which customers abroad pay outside Japanese consumption tax', () => {
    expect(includedConsumptionTax(700, 'USD')).toBeNull();
  });
});

describe('the amount of subscription lines', () => {
  const catalogue = billingCatalogue(
    { 2: { month: { JPY: 500, USD: 400 }, year: { JPY: 5000, USD: 4000 } } },
    { sites_5: { month: { JPY: 500, USD: 400 }, year: { JPY: 5000, USD: 4000 } } },
  );

  it('adds the plan and each add-on times its quantity', () => {
    expect(linesAmount(catalogue, subscriptionLines(2, ['sites:2'], 'month', 'JPY'))).toBe(1500);
    expect(linesAmount(catalogue, subscriptionLines(2, [], 'year', 'USD'))).toBe(4000);
  });

  it('is null when a line is not sold', () => {
    expect(linesAmount(catalogue, subscriptionLines(3, [], 'month', 'JPY'))).toBeNull();
    expect(linesAmount(catalogue, subscriptionLines(2, ['ss'], 'month', 'JPY'))).toBeNull();
  });
});
