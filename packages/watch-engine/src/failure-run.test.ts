import { describe, expect, it } from 'vitest';
import {
  alertDue,
  changesBeyondDueTime,
  countCheck,
  type FailureStreak,
  failureKindOf,
  isFailing,
  NO_STREAK,
} from './failure-run.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 0, minute));
// A check finishes 40 seconds after it was due (a slow page): the history shows that time.
const done = (minute: number) => new Date(at(minute).getTime() + 40_000);
const fail = (kind: 'timeout' | 'unreachable' | 'element_not_found', areaId = '') => ({ kind, areaId });

function run(checks: [number, ReturnType<typeof fail> | null][]): FailureStreak {
  let streak = NO_STREAK;
  for (const [minute, failure] of checks)
    streak = countCheck(streak, { dueAt: at(minute), completedAt: done(minute), failure }) ?? streak;
  return streak;
}

describe('failure runs (docs/product.md#failure-alerts)', () => {
  it('counts failures by kind; the count of one kind decides', () => {
    const streak = run([
      [1, fail('timeout')],
      [2, fail('unreachable')],
      [3, fail('timeout')],
    ]);
    expect(streak.counts).toEqual({ timeout: 2, unreachable: 1 });
    expect(streak.startedAt).toEqual(at(1));
    // The alert names when the first failed check finished, as the history does.
    expect(streak.failedSince).toEqual(done(1));
    expect(isFailing(streak, 3)).toBe(false);
    expect(isFailing(streak, 2)).toBe(true);
  });

  it('a success ends the run; after an alerted one it owes a "working again"', () => {
    const failing = run([
      [1, fail('element_not_found', 'price')],
      [2, fail('element_not_found', 'price')],
    ]);
    expect(alertDue(failing, 2)).toBe(true);
    const alerted = { ...failing, alertedRun: failing.startedAt };
    expect(alertDue(alerted, 2)).toBe(false);
    expect(alerted.lastAreaId).toBe('price');
    const recovered = countCheck(alerted, { dueAt: at(3), completedAt: done(3), failure: null });
    // "Working again" names the first successful check's own time, after the failures.
    expect(recovered).toMatchObject({
      startedAt: null,
      failedSince: done(1),
      counts: {},
      recoveredRun: at(1),
      recoveredAt: done(3),
    });
    // A run that never alerted ends without one.
    expect(countCheck(failing, { dueAt: at(3), completedAt: done(3), failure: null })).toMatchObject({
      recoveredRun: null,
      failedSince: null,
    });
  });

  it('ignores a check already counted or older than the newest', () => {
    const streak = run([[5, fail('timeout')]]);
    expect(countCheck(streak, { dueAt: at(5), completedAt: done(5), failure: fail('timeout') })).toBeNull();
    expect(countCheck(streak, { dueAt: at(4), completedAt: done(4), failure: null })).toBeNull();
  });

  it('a success while the site works changes nothing but the due time; a failure, a recovery and a told recovery do', () => {
    const working = run([[1, null]]);
    const next = (streak: FailureStreak, minute: number, failure: ReturnType<typeof fail> | null) =>
      countCheck(streak, { dueAt: at(minute), completedAt: done(minute), failure }) ?? streak;
    expect(changesBeyondDueTime(NO_STREAK, working)).toBe(false);
    expect(changesBeyondDueTime(working, next(working, 2, null))).toBe(false);
    const failing = next(working, 2, fail('timeout'));
    expect(changesBeyondDueTime(working, failing)).toBe(true);
    expect(changesBeyondDueTime(failing, next(failing, 3, fail('timeout')))).toBe(true);
    // A run that never alerted ends without anything owed: that end is a change all the same.
    expect(changesBeyondDueTime(failing, next(failing, 3, null))).toBe(true);
    const alerted = { ...next(failing, 3, fail('timeout')), alertedRun: at(2) };
    const recovered = next(alerted, 4, null);
    expect(recovered.recoveredRun).toEqual(at(2));
    expect(changesBeyondDueTime(alerted, recovered)).toBe(true);
    // Once "working again" went out, the next successes owe nothing.
    const told = { ...recovered, recoveredRun: null };
    expect(changesBeyondDueTime(told, next(told, 5, null))).toBe(false);
  });

  it('tells the kinds in the user words', () => {
    expect(failureKindOf('blocked_by_robot', '')).toBe('blocked');
    expect(failureKindOf('http_status', 'HTTP 403')).toBe('blocked');
    expect(failureKindOf('http_status', 'HTTP 404')).toBe('unreachable');
    expect(failureKindOf('action_failed', '')).toBe('element_not_found');
    expect(failureKindOf('login_failed', '')).toBe('login_failed');
    expect(failureKindOf('timeout', '')).toBe('timeout');
    expect(failureKindOf('refused_address', '')).toBe('unreachable');
  });
});
