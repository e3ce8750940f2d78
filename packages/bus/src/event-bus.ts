/**
 * The event-bus port. Two adapters implement it with one contract (checked by one shared
 * test suite): JetStream for cluster mode, in-process for the single-process mode.
 *
 * Contract:
 * - at-least-once: a message is delivered until it is acked, termed, or has been delivered
 *   `maxDeliver` times; then it goes to the dead-letter stream (`DEADLETTER`, subject
 *   `deadletter.<stream>.<subject>`)
 * - `nak(delayMs)` redelivers after the delay; no ack within `ackWaitMs` redelivers too
 * - `publish` with a `msgId` already published within the duplicate window is dropped
 * - a `workqueue` stream drops a message once its consumer acked it; a `limits` stream keeps
 *   it (up to `maxAgeMs`), so a durable created later still reads from the beginning
 */
export interface EventBus {
  /** Creates streams (idempotent). Every subject published must fall in a declared stream. */
  declareStreams(streams: readonly StreamSpec[]): Promise<void>;
  publish(subject: string, data: Uint8Array, options: PublishOptions): Promise<PublishAck>;
  /** Starts a durable pull consumer; resolves once it is receiving. */
  consume(spec: ConsumerSpec, handler: MessageHandler): Promise<Consumption>;
  /** Whether a stream has been declared (by this process or another one). */
  hasStream(name: string): Promise<boolean>;
  /** Removes a stream with its messages and consumers (test isolation, namespaced buses). */
  deleteStream(name: string): Promise<void>;
  /** Stops consuming and closes connections; in-flight handlers finish first. */
  close(): Promise<void>;
}

export interface StreamSpec {
  /** e.g. `ACCOUNTS` */
  name: string;
  /** e.g. `['accounts.>']` */
  subjects: string[];
  /** How long a published msgId is remembered for duplicate detection. */
  duplicateWindowMs?: number;
  /** `workqueue`: a message is removed when acked (checks.run); `limits`: kept for all consumers. */
  retention?: 'limits' | 'workqueue';
  /** How long a `limits` stream keeps a message; forever when omitted. */
  maxAgeMs?: number;
}

export interface PublishOptions {
  /** The event id; duplicates within the stream's window are dropped. */
  msgId: string;
  headers?: Record<string, string>;
}

export interface PublishAck {
  stream: string;
  seq: number;
  duplicate: boolean;
}

export interface ConsumerSpec {
  stream: string;
  /** Durable name: consumers with the same name share the work (competing consumers). */
  durable: string;
  /** Subjects within the stream this consumer wants; all of the stream when omitted. */
  filterSubject?: string;
  /** Redelivery when not acked within this time. */
  ackWaitMs: number;
  maxDeliver: number;
  /** Messages handled at once by this process. */
  concurrency?: number;
}

export interface BusMessage {
  subject: string;
  data: Uint8Array;
  /** The event id given to `publish`; kept when a dead letter is redriven. */
  msgId: string;
  headers: Record<string, string>;
  /** 1 on first delivery. */
  deliveryCount: number;
  /** Messages still waiting for this consumer after this one, where the transport tells (JetStream). */
  pending?: number;
  ack(): void;
  /** Hand the message back for redelivery after `delayMs`. */
  nak(delayMs?: number): void;
  /** Give up on the message: it is not redelivered and goes to the dead-letter stream. */
  term(reason?: string): void;
  /** Tell the bus the handler is still working, resetting the ack timer. */
  working(): void;
}

/**
 * A handler that returns without acking gets the message acked; one that throws gets it
 * nak'd with backoff. Handlers may ack, nak or term themselves.
 */
export type MessageHandler = (message: BusMessage) => Promise<void>;

export interface Consumption {
  /** Stops fetching new messages and waits for in-flight handlers. */
  stop(): Promise<void>;
}

export const deadLetterStream = 'DEADLETTER';

export const deadLetterSubject = (stream: string, subject: string) => `deadletter.${stream}.${subject}`;
