export { accountCreated, streams } from './catalog.ts';
export { type EventType, eventType } from './event-type.ts';
