import { describe, expect, it } from 'vitest';
import { checkIsin, isinMessage, searchableQuery } from './search-rules.ts';

describe('checkIsin', () => {
  it.each([
    ['US0378331005', 'Apple'],
    ['JP3633400001', 'Toyota'],
    ['DE0007164600', 'SAP'],
    ['GB0002634946', 'BAE Systems'],
    // A transposition the algorithm cannot see still passes; the source then finds nothing.
    ['AU0000VXGZA3', 'transposed AU0000XVGZA3'],
  ])('accepts %s (%s)', (isin) => {
    expect(checkIsin(isin)).toEqual({ ok: true, isin });
  });

  it('trims and upper-cases before checking', () => {
    expect(checkIsin('  us0378331005 ')).toEqual({ ok: true, isin: 'US0378331005' });
  });

  it.each([
    ['US0378331006', 'a wrong check digit'],
    ['US0373831005', 'two digits transposed'],
    ['U50378331005', 'a digit in the country code'],
    ['US037833100X', 'a letter as the check digit'],
    ['US-378331005', 'a character outside A-Z and 0-9'],
  ])('refuses %s (%s) as invalid', (isin) => {
    expect(checkIsin(isin)).toEqual({ ok: false, problem: 'invalid' });
  });

  it.each(['US037833100', 'US03783310055', ''])('refuses %j for its length', (isin) => {
    expect(checkIsin(isin)).toEqual({ ok: false, problem: 'length' });
  });
});

describe('searchableQuery', () => {
  it.each(['', 'ab', '  ab  ', 'トヨ', '72'])('sends nothing for %j', (input) => {
    expect(searchableQuery(input)).toBeNull();
  });

  it.each([
    ['abc', 'abc'],
    [' 7203 ', '7203'],
    ['トヨタ', 'トヨタ'],
    ['𠮷野家', '𠮷野家'],
  ])('sends %j as %j', (input, query) => {
    expect(searchableQuery(input)).toBe(query);
  });

  it('counts a character outside the basic plane once', () => {
    // '𠮷' is two UTF-16 units; two characters are still too few.
    expect(searchableQuery('𠮷野')).toBeNull();
  });
});

describe('isinMessage', () => {
  it('says nothing before 3 characters, then the length, then the check digit', () => {
    expect(isinMessage('US')).toBeNull();
    expect(isinMessage('US0')).toBe('length');
    expect(isinMessage('US037833100')).toBe('length');
    expect(isinMessage('US0378331006')).toBe('invalid');
    expect(isinMessage('US0378331005')).toBeNull();
  });
});
