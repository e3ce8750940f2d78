import { describe, expect, it } from 'vitest';
import { writtenTime, zoneName } from './written-time.ts';

describe('written time', () => {
  it('writes a moment one way per language, in the reader’s zone, named', () => {
    const at = new Date('2026-12-06T13:07:00Z');
    expect(writtenTime(at, 'Asia/Tokyo', 'ja')).toBe('2026年12月6日 22:07（日本時間）');
    expect(writtenTime(at, 'Asia/Tokyo', 'en')).toBe('Dec 6, 2026, 22:07 (Japan time)');
    expect(writtenTime(at, 'UTC', 'ja')).toBe('2026年12月6日 13:07（UTC）');
    expect(writtenTime(at, 'America/New_York', 'en')).toBe('Dec 6, 2026, 08:07 (Eastern Time)');
  });

  it('writes the hour with two digits and the month by its short English name', () => {
    const early = new Date('2026-09-01T20:05:00Z');
    expect(writtenTime(early, 'Asia/Tokyo', 'ja')).toBe('2026年9月2日 05:05（日本時間）');
    expect(writtenTime(early, 'Asia/Tokyo', 'en')).toBe('Sep 2, 2026, 05:05 (Japan time)');
    // Midnight is 00:00, never 24:00.
    expect(writtenTime(new Date('2026-11-30T15:00:00Z'), 'Asia/Tokyo', 'en')).toBe(
      'Dec 1, 2026, 00:00 (Japan time)',
    );
  });

  it('uses the language’s usual zone when the reader chose none or one Intl does not know', () => {
    const at = new Date('2026-11-23T14:05:00Z');
    expect(writtenTime(at, '', 'ja')).toBe('2026年11月23日 23:05（日本時間）');
    expect(writtenTime(at, '', 'en')).toBe('Nov 23, 2026, 14:05 (UTC)');
    expect(writtenTime(at, 'Not/AZone', 'en')).toBe('Nov 23, 2026, 14:05 (UTC)');
  });

  it('names an offset-only zone by its offset the way people write it, never "Etc/GMT-9"', () => {
    const at = new Date('2026-11-23T14:05:00Z');
    // The sign-up sets Etc/GMT-9 from a UTC+9 browser: its POSIX sign reads backwards.
    expect(writtenTime(at, 'Etc/GMT-9', 'ja')).toBe('2026年11月23日 23:05（UTC+9）');
    expect(writtenTime(at, 'Etc/GMT-9', 'en')).toBe('Nov 23, 2026, 23:05 (UTC+9)');
    expect(zoneName('Etc/GMT+5', 'en', at)).toBe('UTC-5');
    expect(zoneName('Etc/GMT', 'ja', at)).toBe('UTC');
  });

  it('names other zones by Intl’s generic name in the reader’s language', () => {
    const at = new Date('2026-11-23T14:05:00Z');
    expect(zoneName('America/New_York', 'ja', at)).toBe('米国東部時間');
    expect(zoneName('America/New_York', 'en', at)).toBe('Eastern Time');
    expect(zoneName('Asia/Kolkata', 'en', at)).toBe('India Standard Time');
  });
});
