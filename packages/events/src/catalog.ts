import type { StreamSpec } from '@mimamori/bus';
import {
  accountsEventsV1,
  checksEventsV1,
  filingsEventsV1,
  targetsEventsV1,
  updatesEventsV1,
} from '@mimamori/contracts';
import { eventType } from './event-type.ts';

/** Every stream of the system. Services declare the ones they use at start. */
export const streams = {
  accounts: {
    name: 'ACCOUNTS',
    subjects: ['accounts.>'],
    duplicateWindowMs: 120_000,
    maxAgeMs: 7 * 24 * 3_600_000,
  },
  // The check work queue: a check is removed once a crawler acked it; the scheduler's message id
  // `<target id>:<due time ISO>` drops a check dispatched twice within the window.
  checks: {
    name: 'CHECKS',
    subjects: ['checks.run'],
    retention: 'workqueue',
    duplicateWindowMs: 10 * 60_000,
  },
  // What happens to monitored sites; the scheduler plans checks from it, others clean up on delete.
  targets: {
    name: 'TARGETS',
    subjects: ['targets.>'],
    duplicateWindowMs: 120_000,
    maxAgeMs: 7 * 24 * 3_600_000,
  },
  snapshots: {
    name: 'SNAPSHOTS',
    subjects: ['snapshots.>'],
    duplicateWindowMs: 10 * 60_000,
    maxAgeMs: 7 * 24 * 3_600_000,
  },
  // Every check's outcome, judged by the diff service.
  checkResults: {
    name: 'CHECK_RESULTS',
    subjects: ['checks.completed'],
    duplicateWindowMs: 10 * 60_000,
    maxAgeMs: 7 * 24 * 3_600_000,
  },
  // Updates found, for the notifier.
  updates: {
    name: 'UPDATES',
    subjects: ['updates.>'],
    duplicateWindowMs: 10 * 60_000,
    maxAgeMs: 7 * 24 * 3_600_000,
  },
  // New company filings, one event per follower, for the notifier. The event id
  // `filing:<source>:<key>:<user>` drops a poll's events published twice within the window.
  filings: {
    name: 'FILINGS',
    subjects: ['filings.>'],
    duplicateWindowMs: 10 * 60_000,
    maxAgeMs: 7 * 24 * 3_600_000,
  },
} as const satisfies Record<string, StreamSpec>;

export const accountCreated = eventType(
  'accounts.created',
  streams.accounts.name,
  accountsEventsV1.AccountCreated,
);

export const accountMailRequested = eventType(
  'accounts.mail_requested',
  streams.accounts.name,
  accountsEventsV1.AccountMailRequested,
);

export const trialEnded = eventType(
  'accounts.trial_ended',
  streams.accounts.name,
  accountsEventsV1.TrialEnded,
);

export const accountCancelled = eventType(
  'accounts.cancelled',
  streams.accounts.name,
  accountsEventsV1.AccountCancelled,
);

export const accountPurged = eventType(
  'accounts.purged',
  streams.accounts.name,
  accountsEventsV1.AccountPurged,
);

export const accountHeld = eventType('accounts.held', streams.accounts.name, accountsEventsV1.AccountHeld);

export const holdLifted = eventType(
  'accounts.hold_lifted',
  streams.accounts.name,
  accountsEventsV1.HoldLifted,
);

export const planChanged = eventType(
  'accounts.plan_changed',
  streams.accounts.name,
  accountsEventsV1.PlanChanged,
);

export const runCheck = eventType('checks.run', streams.checks.name, checksEventsV1.RunCheck);

export const snapshotCaptured = eventType(
  'snapshots.captured',
  streams.snapshots.name,
  checksEventsV1.SnapshotCaptured,
);

export const checkStateKept = eventType(
  'snapshots.state_kept',
  streams.snapshots.name,
  checksEventsV1.CheckStateKept,
);

export const targetRegistered = eventType(
  'targets.registered',
  streams.targets.name,
  targetsEventsV1.TargetStateChanged,
);

export const targetUpdated = eventType(
  'targets.updated',
  streams.targets.name,
  targetsEventsV1.TargetStateChanged,
);

export const targetPaused = eventType(
  'targets.paused',
  streams.targets.name,
  targetsEventsV1.TargetStateChanged,
);

export const targetResumed = eventType(
  'targets.resumed',
  streams.targets.name,
  targetsEventsV1.TargetStateChanged,
);

export const targetDeleted = eventType(
  'targets.deleted',
  streams.targets.name,
  targetsEventsV1.TargetDeleted,
);

export const targetUsageChanged = eventType(
  'targets.usage_changed',
  streams.targets.name,
  targetsEventsV1.TargetUsageChanged,
);

export const checkCompleted = eventType(
  'checks.completed',
  streams.checkResults.name,
  updatesEventsV1.CheckCompleted,
);

export const updateDetected = eventType(
  'updates.detected',
  streams.updates.name,
  updatesEventsV1.UpdateDetected,
);

export const filingPublished = eventType(
  'filings.published',
  streams.filings.name,
  filingsEventsV1.FilingPublished,
);
