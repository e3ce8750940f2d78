import { describe, expect, it } from 'vitest';
import { backoffUntil } from './backoff.ts';

const MINUTE = 60_000;
const due = new Date('2026-01-01T00:00:00Z');
const after = (failures: number, interval = MINUTE, max = 60 * MINUTE) =>
  backoffUntil(failures, due, interval, max)?.getTime() ?? null;

describe('backoffUntil', () => {
  it('leaves a site failing once on time, then doubles the wait up to the cap', () => {
    expect(after(0)).toBeNull();
    expect(after(1)).toBeNull();
    expect(after(2)).toBe(due.getTime() + 2 * MINUTE);
    expect(after(3)).toBe(due.getTime() + 4 * MINUTE);
    expect(after(7)).toBe(due.getTime() + 60 * MINUTE);
    expect(after(500)).toBe(due.getTime() + 60 * MINUTE);
  });

  it('never caps below one interval', () => {
    expect(after(2, 120 * MINUTE, 60 * MINUTE)).toBe(due.getTime() + 120 * MINUTE);
  });
});
