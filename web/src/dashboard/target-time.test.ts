import { describe, expect, it } from 'vitest';
import { formatDateTime, sitePath } from './target-time.ts';

describe('formatDateTime', () => {
  const moment = '2026-11-23T15:04:00.000Z';

  it("shows the moment in the user's time zone and language", () => {
    expect(formatDateTime(moment, 'ja', 'Asia/Tokyo')).toBe('2026/11/24 00:04');
    expect(formatDateTime(moment, 'en', 'America/New_York')).toBe('11/23/2026, 10:04');
  });

  it('falls back to the browser zone for an unknown zone instead of failing', () => {
    const browser = formatDateTime(moment, 'ja', '');
    expect(formatDateTime(moment, 'ja', 'Nowhere/Atlantis')).toBe(browser);
  });
});

describe('sitePath', () => {
  it('opens a v1 site in its history and a v2 site in its detail page', () => {
    expect(sitePath({ id: 'a1', ver: 1 })).toBe('/history?id=a1');
    expect(sitePath({ id: 'b 2', ver: 2 })).toBe('/target2?id=b%202');
  });
});
