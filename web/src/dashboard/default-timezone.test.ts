import { describe, expect, it } from 'vitest';
import type { TimezoneOption } from '../api/timezones.ts';
import { defaultTimezone } from './default-timezone.ts';

const options: TimezoneOption[] = [
  { o: -5, d: '(UTC-05:00) America/New_York', a: 'EST', v: 'America/New_York' },
  { o: 5.5, d: '(UTC+05:30) Asia/Kolkata', a: 'GMT+5:30', v: 'Asia/Kolkata' },
  { o: 9, d: '(UTC+09:00) Asia/Tokyo', a: 'JST', v: 'Asia/Tokyo' },
  { o: 9, d: '(UTC+09:00) Etc/GMT-9', a: 'GMT+9', v: 'Etc/GMT-9' },
];

/** A date whose getTimezoneOffset answers as a browser at `minutesEast` east of UTC would. */
function at(minutesEast: number): Date {
  const date = new Date('2026-11-23T00:00:00.000Z');
  date.getTimezoneOffset = () => -minutesEast;
  return date;
}

describe('defaultTimezone', () => {
  it("takes the browser's named zone, so a Japanese user is offered Asia/Tokyo", () => {
    expect(defaultTimezone(options, at(540), 'Asia/Tokyo')).toBe('Asia/Tokyo');
  });

  it('reads past a zone the runtime does not know, or an Etc zone, to the offset', () => {
    expect(defaultTimezone(options, at(540), 'Mars/Olympus')).toBe('Etc/GMT-9');
    expect(defaultTimezone(options, at(-300), 'Etc/GMT+5')).toBe('America/New_York');
  });

  it('takes the Etc/GMT zone of a whole-hour offset when the browser names no zone (POSIX sign: UTC+9 is Etc/GMT-9)', () => {
    expect(defaultTimezone(options, at(540), '')).toBe('Etc/GMT-9');
  });

  it('falls back to a listed zone with the same offset when the offset is not whole hours', () => {
    expect(defaultTimezone(options, at(330), '')).toBe('Asia/Kolkata');
  });

  it('falls back to the same offset when the Etc zone is not listed, else to the first zone', () => {
    expect(defaultTimezone(options, at(-300), '')).toBe('America/New_York');
    expect(defaultTimezone(options, at(345), '')).toBe('America/New_York');
    expect(defaultTimezone([], at(540), '')).toBe('');
  });
});
