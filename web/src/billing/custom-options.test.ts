import { describe, expect, it } from 'vitest';
import { addOnsOf, customSites, NO_ADD_ONS, optionsOf } from './custom-options.ts';

describe('custom plan add-ons', () => {
  it('writes only the add-ons chosen, in the billing routes’ option strings', () => {
    expect(optionsOf(NO_ADD_ONS)).toEqual([]);
    expect(
      optionsOf({ extraSiteUnits: 3, interval: '1min', screenshots: true, mails: 2, chat: true }),
    ).toEqual(['sites:3', '1min', 'ss', 'mail:2', 'line']);
  });

  it('reads options back into the form, 1 minute winning over 10 and unknown options left out', () => {
    expect(addOnsOf(['10min', '1min', 'sites:1', 'sites:2', 'gold', 'mail:x'])).toEqual({
      ...NO_ADD_ONS,
      extraSiteUnits: 3,
      interval: '1min',
    });
    const chosen = {
      extraSiteUnits: 1,
      interval: '10min' as const,
      screenshots: true,
      mails: 1,
      chat: false,
    };
    expect(addOnsOf(optionsOf(chosen))).toEqual(chosen);
  });

  it('counts the 5 base sites plus 5 per unit', () => {
    expect(customSites(NO_ADD_ONS)).toBe(5);
    expect(customSites({ ...NO_ADD_ONS, extraSiteUnits: 4 })).toBe(25);
  });
});
