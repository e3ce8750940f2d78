import { describe, expect, it } from 'vitest';
import { ACCOUNT_SPREAD_MS, dueTimeIn, MINUTE_MS, phaseOf, phaseRanges } from './phase.ts';

const MINUTE = 60_000;

/** Every phase whose due time falls in (from, to], found by walking due times one by one. */
function duePhasesByWalking(from: number, to: number, interval: number, phases: number[]): number[] {
  return phases.filter((phase) => {
    const k = Math.floor((to - phase) / interval);
    const due = k * interval + phase;
    return due > from && due <= to;
  });
}

describe('phaseRanges and dueTimeIn', () => {
  it('select exactly the phases due in the window, with their due time, also across the interval end', () => {
    const phases = Array.from({ length: 600 }, (_, i) => i * 100);
    const windows: [number, number][] = [
      [1_700_000_000_000, 1_700_000_000_250],
      [1_700_000_059_900, 1_700_000_060_150],
      [1_700_000_030_000, 1_700_000_089_999],
      [1_700_000_000_000, 1_700_000_000_000],
    ];
    for (const [from, to] of windows) {
      const ranges = phaseRanges(from, to, MINUTE);
      const selected = phases.filter((p) => ranges.some((r) => p >= r.low && p <= r.high));
      expect(selected).toEqual(duePhasesByWalking(from, to, MINUTE, phases));
      for (const phase of selected) {
        const due = dueTimeIn(from, MINUTE, phase);
        expect(due > from && due <= to).toBe(true);
        expect((due - phase) % MINUTE).toBe(0);
      }
    }
  });

  it('refuses a window as long as the interval, which would need two due times per site', () => {
    expect(() => phaseRanges(0, MINUTE, MINUTE)).toThrow();
  });
});

describe('phaseOf', () => {
  const distance = (a: number, b: number, interval: number) => {
    const apart = Math.abs(a - b) % interval;
    return Math.min(apart, interval - apart);
  };

  it('is stable for a site: the same on every call', () => {
    expect(phaseOf('site-a', 'user-a', 10 * MINUTE)).toBe(phaseOf('site-a', 'user-a', 10 * MINUTE));
    expect(phaseOf('site-a', 'user-a', MINUTE)).toBeLessThan(MINUTE);
  });

  it('puts the sites of one account within the spread of each other, and not all in one tick', () => {
    for (const interval of [MINUTE, 10 * MINUTE, 60 * MINUTE]) {
      for (const account of ['user-1', 'user-2', 'user-3']) {
        const phases = Array.from({ length: 100 }, (_, i) =>
          phaseOf(`${account}-site-${i}`, account, interval),
        );
        for (const phase of phases) {
          // The distance around the interval: an account's phase near its end wraps to the start.
          expect(distance(phase, phases[0] as number, interval)).toBeLessThan(ACCOUNT_SPREAD_MS);
        }
        // 100 sites over the spread: one tick (250 ms) never holds nearly all of them.
        const ticks = new Set(phases.map((phase) => Math.floor(phase / 250)));
        expect(ticks.size).toBeGreaterThanOrEqual(Math.floor(ACCOUNT_SPREAD_MS / 250) - 1);
      }
    }
  });

  it('spreads accounts over the interval, as it spread sites before', () => {
    const seconds = new Set(
      Array.from({ length: 200 }, (_, i) => Math.floor(phaseOf(`site-${i}`, `user-${i}`, MINUTE) / 1_000)),
    );
    // 200 accounts over 60 seconds: a hash leaves few seconds empty; identical phases would leave one.
    expect(seconds.size).toBeGreaterThan(50);
  });

  it('keeps the spread no longer than the interval', () => {
    expect(ACCOUNT_SPREAD_MS).toBeLessThanOrEqual(MINUTE_MS);
  });
});
