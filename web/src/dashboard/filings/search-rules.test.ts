import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { en, ja } from '../../i18n/catalogue.ts';
import { isinMessage, searchableQuery, searchFailure } from './search-rules.ts';

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

describe('searchFailure', () => {
  const failure = (status: number, code: string, field?: string) =>
    searchFailure(new ApiError(status, code, `errors.${code}`, field));
  const say = (catalogue: typeof ja, { key, source }: ReturnType<typeof searchFailure>) => {
    let text: unknown = catalogue;
    for (const part of key.split('.')) text = (text as Record<string, unknown>)[part];
    return String(text).replace('{{source}}', source ?? '');
  };

  it('names a source that could not be reached, never "not found", in Japanese and English', () => {
    const edinet = failure(503, 'source_unavailable', 'edinet');
    expect(edinet).toEqual({ key: 'dashboard.filings.sourceUnreachable', source: 'EDINET' });
    expect(say(ja, edinet)).toBe('EDINET に接続できませんでした。しばらくしてからもう一度お試しください。');
    const globeNewswire = failure(503, 'source_unavailable', 'globenewswire');
    expect(say(en, globeNewswire)).toBe('Could not reach GlobeNewswire. Please try again later.');
    expect(say(en, failure(503, 'source_unavailable', 'sec'))).toBe(
      'Could not reach SEC EDGAR. Please try again later.',
    );
  });

  it('says a source is not switched on here, pointing at the guide', () => {
    const off = failure(503, 'source_off', 'globenewswire');
    expect(off).toEqual({ key: 'dashboard.filings.sourceOff', source: 'GlobeNewswire' });
    expect(say(en, off)).toContain('GlobeNewswire is not switched on on this server');
    expect(say(ja, off)).toContain('GlobeNewswire はこのサーバーで有効になっていません');
  });

  it('asks to wait on a 429 and says "could not search" for anything else', () => {
    expect(failure(429, 'rate_limited', 'globenewswire').key).toBe('dashboard.filings.tooMany');
    expect(failure(503, 'filings_unavailable').key).toBe('dashboard.filings.searchFailed');
    expect(failure(503, 'source_unavailable').key).toBe('dashboard.filings.searchFailed');
    expect(searchFailure(new Error('boom')).key).toBe('dashboard.filings.searchFailed');
  });
});
