/**
 * A site's run of failed checks (docs/product.md#failure-alerts): checks are counted in due-time
 * order, failures by the kind the user reads; a kind reaching the site's alert count makes the
 * site failing (the notifier alerts once per run, the site list shows it), and the first success
 * after an alerted run ends it (the notifier says it works again). Shared by the notifier, which
 * alerts, and the target service, which shows the failing state.
 */

/** The kinds of failure a person is told about, in their words. */
export type FailureKind = 'blocked' | 'unreachable' | 'element_not_found' | 'login_failed' | 'timeout';

/** The default for a site that set no count of its own, and the range a site may set. */
export const DEFAULT_ALERT_AFTER = 3;
export const ALERT_AFTER_RANGE = { min: 1, max: 100 } as const;

/** The kind a check error is told as (docs/product.md#failure-alerts). */
export function failureKindOf(errorCode: string, errorDetail: string): FailureKind {
  switch (errorCode) {
    case 'blocked_by_robot':
      return 'blocked';
    case 'http_status':
      // The site answered, refusing us: forbidden or too many requests.
      return /\b(401|403|429)\b/.test(errorDetail) ? 'blocked' : 'unreachable';
    case 'timeout':
      return 'timeout';
    case 'element_not_found':
    case 'action_failed':
      return 'element_not_found';
    case 'login_failed':
      return 'login_failed';
    default:
      return 'unreachable';
  }
}

export interface FailureStreak {
  /** Due time of the newest check counted. */
  lastDueAt: Date | null;
  /** Due time of the run's first failure, which names the run; null while the site works. */
  startedAt: Date | null;
  /**
   * When the run's first failed check finished: the time the history shows for it, which the
   * alert names as the start of the failures. Kept after an alerted run ends, for its "working
   * again" message; null otherwise while the site works.
   */
  failedSince: Date | null;
  /** Failures in the run, by kind. */
  counts: Partial<Record<FailureKind, number>>;
  /** The newest failure's kind and, for element not found, its area id. */
  lastKind: FailureKind | null;
  lastAreaId: string;
  /** The run the alert went out for (its startedAt). */
  alertedRun: Date | null;
  /** An alerted run a success ended: its "working again" message is still to go. */
  recoveredRun: Date | null;
  /** When the check that ended that run finished: the time "working again" names. */
  recoveredAt: Date | null;
}

export const NO_STREAK: FailureStreak = {
  lastDueAt: null,
  startedAt: null,
  failedSince: null,
  counts: {},
  lastKind: null,
  lastAreaId: '',
  alertedRun: null,
  recoveredRun: null,
  recoveredAt: null,
};

/** The result of one check, failed (with its kind) or not. */
export interface CheckOutcome {
  dueAt: Date;
  /** When the check finished (the history's time for it). */
  completedAt: Date;
  failure: { kind: FailureKind; areaId: string } | null;
}

/**
 * Counts one check; null when its due time is already counted (a redelivery, or an older check
 * arriving late), which changes nothing.
 */
export function countCheck(streak: FailureStreak, check: CheckOutcome): FailureStreak | null {
  if (streak.lastDueAt && streak.lastDueAt.getTime() >= check.dueAt.getTime()) return null;
  if (!check.failure) {
    const alerted = streak.startedAt !== null && sameTime(streak.alertedRun, streak.startedAt);
    return {
      ...NO_STREAK,
      lastDueAt: check.dueAt,
      alertedRun: null,
      recoveredRun: alerted ? streak.startedAt : streak.recoveredRun,
      recoveredAt: alerted ? check.completedAt : streak.recoveredAt,
      // A run that never alerted owes nothing; one already ended keeps what its message needs.
      failedSince: alerted || streak.startedAt === null ? streak.failedSince : null,
    };
  }
  const { kind, areaId } = check.failure;
  const counts = streak.startedAt ? { ...streak.counts } : {};
  counts[kind] = (counts[kind] ?? 0) + 1;
  return {
    ...streak,
    lastDueAt: check.dueAt,
    startedAt: streak.startedAt ?? check.dueAt,
    failedSince: streak.startedAt ? streak.failedSince : check.completedAt,
    counts,
    lastKind: kind,
    lastAreaId: areaId,
  };
}

/**
 * Whether counting a check changed anything but the newest due time: a success while the site
 * works (no run going, nothing owed) does not, and its holder need not write it down (ADR 0032).
 * An older failure reported late after such a success could then start a run of its own; the
 * holders drop it when they know a newer check had finished.
 */
export function changesBeyondDueTime(held: FailureStreak, counted: FailureStreak): boolean {
  const times = (streak: FailureStreak) =>
    [streak.startedAt, streak.failedSince, streak.alertedRun, streak.recoveredRun, streak.recoveredAt].map(
      (at) => at?.getTime() ?? null,
    );
  return (
    JSON.stringify(times(held)) !== JSON.stringify(times(counted)) ||
    JSON.stringify(held.counts) !== JSON.stringify(counted.counts) ||
    held.lastKind !== counted.lastKind ||
    held.lastAreaId !== counted.lastAreaId
  );
}

/** Whether the run's newest kind has failed often enough to alert. */
export function isFailing(streak: FailureStreak, alertAfter: number): boolean {
  if (!streak.startedAt || !streak.lastKind) return false;
  return (streak.counts[streak.lastKind] ?? 0) >= alertAfter;
}

/** Whether the run is failing and its alert has not gone out yet. */
export function alertDue(streak: FailureStreak, alertAfter: number): boolean {
  return isFailing(streak, alertAfter) && !sameTime(streak.alertedRun, streak.startedAt);
}

function sameTime(a: Date | null, b: Date | null): boolean {
  return a !== null && b !== null && a.getTime() === b.getTime();
}
