import { describe, expect, it } from 'vitest';
import { presentedLocale } from './reader-locale.ts';

describe('the locale presented to a site', () => {
  it('is the reader’s language with fallbacks and their zone', () => {
    expect(presentedLocale({ lang: 'ja', timeZone: 'Asia/Tokyo' })).toEqual({
      locale: 'ja-JP',
      acceptLanguage: 'ja-JP,ja;q=0.9,en;q=0.8',
      timeZone: 'Asia/Tokyo',
    });
    expect(presentedLocale({ lang: 'en', timeZone: 'Etc/GMT-9' })).toEqual({
      locale: 'en-US',
      acceptLanguage: 'en-US,en;q=0.9',
      timeZone: 'Etc/GMT-9',
    });
  });

  it('leaves out a zone the runtime does not know, and is absent for a reader with neither', () => {
    expect(presentedLocale({ lang: 'en', timeZone: 'Mars/Base' })).toEqual({
      locale: 'en-US',
      acceptLanguage: 'en-US,en;q=0.9',
    });
    expect(presentedLocale({ lang: '', timeZone: 'Asia/Tokyo' })?.locale).toBe('ja-JP');
    expect(presentedLocale({ lang: '', timeZone: '' })).toBeUndefined();
    expect(presentedLocale(undefined)).toBeUndefined();
  });
});
