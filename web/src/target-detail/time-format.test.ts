import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../dashboard/target-time.ts';
import { dayIn } from './time-format.ts';

describe('times in the user’s time zone', () => {
  const lateUtc = new Date('2026-11-23T20:30:00.000Z');

  it('reads today in the user’s zone, not UTC', () => {
    expect(dayIn('Asia/Tokyo', lateUtc)).toBe('2026-11-24');
    expect(dayIn('Etc/GMT+5', lateUtc)).toBe('2026-11-23');
  });

  it('shows a time in the user’s zone', () => {
    expect(formatDateTime(lateUtc.toISOString(), 'en', 'Asia/Tokyo')).toContain('05:30');
    expect(formatDateTime(lateUtc.toISOString(), 'en', 'UTC')).toContain('20:30');
  });

  it('falls back to the browser’s zone for one Intl does not know', () => {
    expect(formatDateTime(lateUtc.toISOString(), 'en', 'Not/AZone')).toMatch(/2026/);
    expect(dayIn('Not/AZone', lateUtc)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
