/**
 * The custom plan's add-ons (docs/product.md#plans) as the plan-change form edits them, and the option
 * strings the billing routes carry: "sites:<units of 5>", "10min" or "1min", "ss", "mail:<count>", "line".
 */
export type CustomInterval = '60min' | '10min' | '1min';

export interface CustomAddOns {
  /** Extra sites in units of 5, on top of the 5 the base price covers. */
  extraSiteUnits: number;
  interval: CustomInterval;
  screenshots: boolean;
  /** Additional e-mail addresses. */
  mails: number;
  chat: boolean;
}

export const NO_ADD_ONS: CustomAddOns = {
  extraSiteUnits: 0,
  interval: '60min',
  screenshots: false,
  mails: 0,
  chat: false,
};

/** The base price covers this many sites; each unit adds as many again. */
export const SITES_PER_UNIT = 5;

export function optionsOf(addOns: CustomAddOns): string[] {
  const options: string[] = [];
  if (addOns.extraSiteUnits > 0) options.push(`sites:${addOns.extraSiteUnits}`);
  if (addOns.interval !== '60min') options.push(addOns.interval);
  if (addOns.screenshots) options.push('ss');
  if (addOns.mails > 0) options.push(`mail:${addOns.mails}`);
  if (addOns.chat) options.push('line');
  return options;
}

/** Reads the options back; unknown ones are left out, repeated counts add up, 1 minute wins over 10. */
export function addOnsOf(options: readonly string[]): CustomAddOns {
  const addOns = { ...NO_ADD_ONS };
  for (const option of options) {
    const [name, count] = option.split(':');
    const amount = count === undefined ? 1 : Number(count);
    if (!Number.isInteger(amount) || amount < 0) continue;
    if (name === 'sites') addOns.extraSiteUnits += amount;
    else if (name === '1min') addOns.interval = '1min';
    else if (name === '10min' && addOns.interval !== '1min') addOns.interval = '10min';
    else if (name === 'ss') addOns.screenshots = true;
    else if (name === 'mail') addOns.mails += amount;
    else if (name === 'line') addOns.chat = true;
  }
  return addOns;
}

export function customSites(addOns: CustomAddOns): number {
  return SITES_PER_UNIT * (1 + addOns.extraSiteUnits);
}
