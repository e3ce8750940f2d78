import { describe, expect, it } from 'vitest';
import { checkIsin } from './isin.ts';

describe('checkIsin', () => {
  it.each(['US0378331005', 'JP3633400001', 'DE0007164600', 'GB0002634946', ' us0378331005 '])(
    'accepts %s',
    (input) => {
      expect(checkIsin(input)).toEqual({ ok: true, isin: input.trim().toUpperCase() });
    },
  );

  it('refuses a wrong check digit and a transposition the digit catches', () => {
    expect(checkIsin('US0378331006')).toEqual({ ok: false, problem: 'check_digit' });
    expect(checkIsin('US0373831005')).toEqual({ ok: false, problem: 'check_digit' });
  });

  it('passes the transposition ISO 6166 cannot see, as the standard does', () => {
    expect(checkIsin('AU0000VXGZA3').ok).toBe(true);
    expect(checkIsin('AU0000XVGZA3').ok).toBe(true);
  });

  it('tells a wrong length from a wrong shape', () => {
    expect(checkIsin('US037833100')).toEqual({ ok: false, problem: 'length' });
    expect(checkIsin('US03783310055')).toEqual({ ok: false, problem: 'length' });
    expect(checkIsin('U50378331005')).toEqual({ ok: false, problem: 'format' });
    expect(checkIsin('US037833100X')).toEqual({ ok: false, problem: 'format' });
    expect(checkIsin('US-378331005')).toEqual({ ok: false, problem: 'format' });
    expect(checkIsin('')).toEqual({ ok: false, problem: 'length' });
  });
});
