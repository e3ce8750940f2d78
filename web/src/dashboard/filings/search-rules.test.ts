import { describe, expect, it } from 'vitest';
import { isinMessage, searchableQuery } from './search-rules.ts';

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
    expect(isinMessage('  us0378331005 ')).toBeNull();
  });

  it.each([
    ['US0378331006', 'a wrong check digit'],
    ['US0373831005', 'two digits transposed'],
    ['U50378331005', 'a digit in the country code'],
    ['US037833100X', 'a letter as the check digit'],
    ['US-378331005', 'a character outside A-Z and 0-9'],
  ])('calls %s (%s) invalid', (isin) => {
    expect(isinMessage(isin)).toBe('invalid');
  });
});
