import { describe, expect, it } from 'vitest';
import { dayStart, deviceName } from './audit-time.ts';

describe('the audit log’s days in the account’s zone', () => {
  it('starts a day at local midnight, and the next day for the end of a range', () => {
    expect(dayStart('2026-12-06', 'Asia/Tokyo')).toBe('2026-12-05T15:00:00.000Z');
    expect(dayStart('2026-12-06', 'Asia/Tokyo', 1)).toBe('2026-12-06T15:00:00.000Z');
    expect(dayStart('2026-12-06', '')).toBe('2026-12-06T00:00:00.000Z');
    expect(dayStart('2026-12-31', 'UTC', 1)).toBe('2027-01-01T00:00:00.000Z');
  });

  it('follows a daylight saving change and refuses what is not a day', () => {
    // New York moves to summer time on 8 March 2026: midnight is still 05:00 UTC, the next 04:00.
    expect(dayStart('2026-03-08', 'America/New_York')).toBe('2026-03-08T05:00:00.000Z');
    expect(dayStart('2026-03-09', 'America/New_York')).toBe('2026-03-09T04:00:00.000Z');
    expect(dayStart('6 December', 'Asia/Tokyo')).toBeUndefined();
    expect(dayStart('2026-12-06', 'Not/A_Zone')).toBe('2026-12-06T00:00:00.000Z');
  });
});

describe('the device a user agent names', () => {
  it('says the browser and system, or a program’s own name', () => {
    expect(
      deviceName(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      ),
    ).toBe('Edge · Windows');
    expect(
      deviceName(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari · iOS');
    expect(
      deviceName('Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0'),
    ).toBe('Firefox · macOS');
    expect(deviceName('curl/8.5.0')).toBe('curl/8.5.0');
    expect(deviceName('')).toBe('');
  });
});
