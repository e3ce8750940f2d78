export { type DeadLetter, type DeadLetterQuery, openDeadLetters } from './dead-letter-admin.ts';
export { eraseEventTraces } from './erase-traces.ts';
export type {
  BusMessage,
  ConsumerSpec,
  Consumption,
  EventBus,
  MessageHandler,
  PublishAck,
  PublishOptions,
  StreamSpec,
} from './event-bus.ts';
export { deadLetterStream, deadLetterSubject } from './event-bus.ts';
export {
  idempotent,
  processedEventsMigration,
  processedEventsMigrationVersion,
  pruneProcessedEvents,
} from './idempotent-handler.ts';
export { createInProcessBus, type InProcessBusOptions } from './in-process-bus.ts';
export { createJetStreamBus, type JetStreamBusOptions } from './jetstream-bus.ts';
export { deadLetterHeaders, eventIdHeader } from './message-headers.ts';
export { namespacedBus } from './namespaced-bus.ts';
export { type OutboxEvent, outboxMigration, outboxMigrationVersion, writeEvent } from './outbox.ts';
export {
  createOutboxRelay,
  type OutboxRelay,
  type OutboxRelayLogger,
  type OutboxRelayOptions,
} from './outbox-relay.ts';
export { exponentialRetryDelay, type RetryDelay } from './retry-delay.ts';
export { type CatalogEntry, startConsumers } from './subject-catalog.ts';
