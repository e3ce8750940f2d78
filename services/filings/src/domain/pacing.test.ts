import { describe, expect, it } from 'vitest';
import { type Clock, nextPollDelay, RequestPacer } from './pacing.ts';

class ManualClock implements Clock {
  at = 0;
  now(): number {
    return this.at;
  }
  async sleep(ms: number): Promise<void> {
    this.at += ms;
  }
}

describe('RequestPacer', () => {
  it('lets a burst through, then spaces requests to the rate', async () => {
    const clock = new ManualClock();
    const pacer = new RequestPacer(10, 10, clock);
    const times: number[] = [];
    for (let i = 0; i < 30; i++) {
      await pacer.take();
      times.push(clock.now());
    }
    expect(times.slice(0, 10)).toEqual(Array(10).fill(0));
    // 20 more at 10 a second take 2 s: never more than 10 in any second after the burst.
    expect(times[29]).toBe(2_000);
    for (let i = 10; i < 30; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeLessThanOrEqual(100);
  });

  it('spaces every request by a second at one a second without burst', async () => {
    const clock = new ManualClock();
    const pacer = new RequestPacer(1, 1, clock);
    const times: number[] = [];
    await Promise.all([0, 1, 2].map(() => pacer.take().then(() => times.push(clock.now()))));
    expect(times).toEqual([0, 1_000, 2_000]);
  });
});

describe('nextPollDelay', () => {
  it('doubles with each failure in a row up to the ceiling, and is the interval after a success', () => {
    expect(nextPollDelay(60_000, 0, 3_600_000)).toBe(60_000);
    expect(nextPollDelay(60_000, 1, 3_600_000)).toBe(120_000);
    expect(nextPollDelay(60_000, 3, 3_600_000)).toBe(480_000);
    expect(nextPollDelay(60_000, 40, 3_600_000)).toBe(3_600_000);
  });
});
