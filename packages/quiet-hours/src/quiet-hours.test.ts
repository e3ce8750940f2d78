import { describe, expect, it } from 'vitest';
import { isQuiet, NO_QUIET_HOURS, quietEnds, quietHoursProblem } from './quiet-hours.ts';

const TOKYO = 'Asia/Tokyo';
/** A moment written in Japan time. */
const jst = (local: string) => new Date(`${local}+09:00`);

// Nights 20:00–08:00, weekends and Japanese public holidays all day.
const QUIET = { from: '20:00', until: '08:00', allDay: [0, 6], holidays: true, alertsBreakThrough: true };

describe('quiet hours in the person’s zone (docs/product.md#quiet-hours)', () => {
  it('a weekday: quiet at night, across midnight, not in the day', () => {
    // Thursday 2026-11-19.
    expect(isQuiet(QUIET, jst('2026-11-19T07:59'), TOKYO)).toBe(true);
    expect(isQuiet(QUIET, jst('2026-11-19T08:00'), TOKYO)).toBe(false);
    expect(isQuiet(QUIET, jst('2026-11-19T19:59'), TOKYO)).toBe(false);
    expect(isQuiet(QUIET, jst('2026-11-19T20:00'), TOKYO)).toBe(true);
    expect(isQuiet(QUIET, jst('2026-11-19T23:30'), TOKYO)).toBe(true);
  });

  it('a weekend is quiet all day', () => {
    expect(isQuiet(QUIET, jst('2026-11-21T12:00'), TOKYO)).toBe(true); // Saturday
    expect(isQuiet(QUIET, jst('2026-11-22T12:00'), TOKYO)).toBe(true); // Sunday
  });

  it('a Japanese public holiday is quiet all day, and only with holidays on', () => {
    // Monday 2026-11-23, 勤労感謝の日.
    expect(isQuiet(QUIET, jst('2026-11-23T12:00'), TOKYO)).toBe(true);
    expect(isQuiet({ ...QUIET, holidays: false }, jst('2026-11-23T12:00'), TOKYO)).toBe(false);
    // Tuesday after it is an ordinary day.
    expect(isQuiet(QUIET, jst('2026-11-24T12:00'), TOKYO)).toBe(false);
  });

  it('reads the day in the person’s zone, not the server’s', () => {
    const holidaysOnly = { ...QUIET, from: '', until: '', allDay: [] };
    // 2026-11-23T16:00Z is Tuesday 01:00 in Tokyo (an ordinary day) but still Monday the 23rd,
    // 勤労感謝の日, in UTC.
    const at = new Date('2026-11-23T16:00:00Z');
    expect(isQuiet(holidaysOnly, at, TOKYO)).toBe(false);
    expect(isQuiet(holidaysOnly, at, 'UTC')).toBe(true);
  });

  it('ends at the first minute that is not quiet: a Friday night runs through the weekend and the holiday', () => {
    expect(quietEnds(QUIET, jst('2026-11-20T21:15'), TOKYO)).toEqual(jst('2026-11-24T08:00'));
    expect(quietEnds(QUIET, jst('2026-11-19T07:30'), TOKYO)).toEqual(jst('2026-11-19T08:00'));
    // Outside quiet hours it is now (to the next whole minute).
    expect(quietEnds(QUIET, jst('2026-11-19T12:00'), TOKYO)).toEqual(jst('2026-11-19T12:00'));
  });

  it('never holds for ever', () => {
    const always = { ...QUIET, allDay: [0, 1, 2, 3, 4, 5, 6] };
    const from = jst('2026-11-19T12:00');
    expect(quietEnds(always, from, TOKYO).getTime() - from.getTime()).toBe(16 * 24 * 3_600_000);
  });

  it('no quiet hours are never quiet', () => {
    expect(isQuiet(NO_QUIET_HOURS, jst('2026-11-22T03:00'), TOKYO)).toBe(false);
  });

  it('refuses malformed times and days', () => {
    expect(quietHoursProblem(QUIET)).toBeNull();
    expect(quietHoursProblem({ ...QUIET, from: '25:00' })).toBe('quiet_hours_time_invalid');
    expect(quietHoursProblem({ ...QUIET, until: '' })).toBe('quiet_hours_time_invalid');
    expect(quietHoursProblem({ ...QUIET, from: '08:00', until: '08:00' })).toBe('quiet_hours_time_invalid');
    expect(quietHoursProblem({ ...QUIET, allDay: [7] })).toBe('quiet_hours_day_invalid');
    expect(quietHoursProblem({ ...QUIET, allDay: [1, 1] })).toBe('quiet_hours_day_invalid');
  });
});
