export {
  accountCancelled,
  accountCreated,
  accountMailRequested,
  changeDetected,
  checkCompleted,
  checkRequested,
  filingPublished,
  siteUsageChanged,
  snapshotCaptured,
  streams,
  targetDeleted,
  targetPaused,
  targetRegistered,
  targetResumed,
  targetUpdated,
  trialEnded,
} from './catalog.ts';
export { type EventType, eventType } from './event-type.ts';
