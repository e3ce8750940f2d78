import { describe, expect, it } from 'vitest';
import { Allowance } from './allowance.ts';

describe('a user’s search allowance', () => {
  it('lets a burst through, then one search per refill, each user on their own', () => {
    let now = 0;
    const allowance = new Allowance(3, 1 / 3, () => now);
    expect([1, 2, 3, 4].map(() => allowance.take('alice'))).toEqual([true, true, true, false]);
    expect(allowance.take('bob')).toBe(true);
    now += 2_999;
    expect(allowance.take('alice')).toBe(false);
    now += 1;
    expect(allowance.take('alice')).toBe(true);
    expect(allowance.take('alice')).toBe(false);
    // Idle long enough, the bucket is full again, never fuller.
    now += 3_600_000;
    expect([1, 2, 3, 4].map(() => allowance.take('alice'))).toEqual([true, true, true, false]);
  });

  it('forgets the longest-idle users past its size, who then start with a full bucket', () => {
    let now = 0;
    const allowance = new Allowance(1, 1 / 60, () => now, 2);
    expect(allowance.take('a')).toBe(true);
    now += 1;
    expect(allowance.take('b')).toBe(true);
    expect(allowance.take('c')).toBe(true);
    // a was forgotten; b and c are still empty.
    expect(allowance.take('a')).toBe(true);
    expect(allowance.take('c')).toBe(false);
  });
});
