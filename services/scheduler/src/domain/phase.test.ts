import { describe, expect, it } from 'vitest';
import { dueTimeIn, phaseOf, phaseRanges } from './phase.ts';

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
  it('is stable for a site and spreads sites registered together over the interval', () => {
    expect(phaseOf('site-a', 10 * MINUTE)).toBe(phaseOf('site-a', 10 * MINUTE));
    const seconds = new Set(
      Array.from({ length: 200 }, (_, i) => Math.floor(phaseOf(`site-${i}`, MINUTE) / 1_000)),
    );
    // 200 sites over 60 seconds: a hash leaves few seconds empty; identical phases would leave one.
    expect(seconds.size).toBeGreaterThan(50);
  });
});
