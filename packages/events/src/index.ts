export { accountCancelled, accountCreated, accountMailRequested, streams, trialEnded } from './catalog.ts';
export { type EventType, eventType } from './event-type.ts';
