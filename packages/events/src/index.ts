export {
  accountCancelled,
  accountCreated,
  accountMailRequested,
  checkRequested,
  snapshotCaptured,
  streams,
  trialEnded,
} from './catalog.ts';
export { type EventType, eventType } from './event-type.ts';
