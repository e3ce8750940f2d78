import { describe, expect, it } from 'vitest';
import { timezoneList } from './timezone-list.ts';

describe('timezoneList', () => {
  const list = timezoneList(new Date('2026-01-15T00:00:00Z'));

  it('lists named and Etc/GMT zones with offset, label, abbreviation and value', () => {
    expect(list.find((option) => option.v === 'Asia/Tokyo')).toEqual({
      o: 9,
      d: '(UTC+09:00) Asia/Tokyo',
      a: 'GMT+9',
      v: 'Asia/Tokyo',
    });
    expect(list.find((option) => option.v === 'Etc/GMT-9')?.o).toBe(9);
    expect(list.find((option) => option.v === 'Etc/GMT+5')?.o).toBe(-5);
    expect(list.filter((option) => option.o === 5.5).map((option) => option.d)).toContain(
      '(UTC+05:30) Asia/Calcutta',
    );
  });

  it('is ordered by offset', () => {
    const offsets = list.map((option) => option.o);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(new Set(list.map((option) => option.v)).size).toBe(list.length);
  });
});
