import { PLANS } from './plan-catalog.ts';
import type { Quota } from './quota.ts';

/**
 * Add-ons of the custom plan (docs/product.md#plans): extra sites in 5-site units (`sites:<units>`),
 * a faster interval for all its sites (`10min`, `1min`), screenshots (`ss`), additional
 * e-mail addresses (`mail:<count>`) and chat notification (`line`).
 */
export type CustomOption = string;

const SITE_UNIT = 5;

export class InvalidCustomOption extends Error {}

export function customPlanQuota(options: readonly CustomOption[]): Quota {
  let sites = PLANS[2].sites;
  let interval: '_60min' | '_10min' | '_1min' = '_60min';
  let ss = false;
  let mail = 0;
  let line = false;
  for (const option of options) {
    const [name, count] = option.split(':');
    const amount = count === undefined ? 1 : Number(count);
    if (!Number.isInteger(amount) || amount < 0) throw new InvalidCustomOption(option);
    if (name === 'sites') sites += SITE_UNIT * amount;
    else if (name === '10min') interval = interval === '_1min' ? '_1min' : '_10min';
    else if (name === '1min') interval = '_1min';
    else if (name === 'ss') ss = true;
    else if (name === 'mail') mail += amount;
    else if (name === 'line') line = true;
    else throw new InvalidCustomOption(option);
  }
  return {
    _60min: interval === '_60min' ? sites : 0,
    _10min: interval === '_10min' ? sites : 0,
    _1min: interval === '_1min' ? sites : 0,
    random_ip: 0,
    ss: ss ? sites : 0,
    mail,
    line_notify: line ? sites : 0,
  };
}
