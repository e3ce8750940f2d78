import { describe, expect, it } from 'vitest';
import { MINUTE_MS } from './phase.ts';
import { startChecksIn, startCheckTimes } from './start-checks.ts';

const MINUTE = MINUTE_MS;
const started = Date.UTC(2026, 0, 1, 9, 0, 12, 345);

describe('start checks of a target that starts monitoring', () => {
  it('checks a 10-minute or slower target at once and a minute later', () => {
    expect(startCheckTimes(started, 10 * MINUTE)).toEqual([started, started + MINUTE]);
    expect(startCheckTimes(started, 60 * MINUTE)).toEqual([started, started + MINUTE]);
  });

  it('checks a 1-minute target at once only: its phase comes within the minute', () => {
    expect(startCheckTimes(started, MINUTE)).toEqual([started]);
  });

  it('sends each start check in the one window that holds its time', () => {
    const interval = 10 * MINUTE;
    expect(startChecksIn(started, interval, started - 250, started)).toEqual([started]);
    expect(startChecksIn(started, interval, started, started + 250)).toEqual([]);
    expect(startChecksIn(started, interval, started + MINUTE - 1, started + MINUTE)).toEqual([
      started + MINUTE,
    ]);
    expect(startChecksIn(started, interval, started - MINUTE, started + 2 * MINUTE)).toEqual([
      started,
      started + MINUTE,
    ]);
  });
});
