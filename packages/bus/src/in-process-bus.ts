import { deadLetterOf } from './dead-letter.ts';
import {
  type ConsumerSpec,
  deadLetterStream,
  type EventBus,
  type MessageHandler,
  type PublishAck,
  type PublishOptions,
  type StreamSpec,
} from './event-bus.ts';
import { eventIdHeader, isBusHeader, readHeader } from './message-headers.ts';
import { publishTraced } from './message-tracing.ts';
import { exponentialRetryDelay, type RetryDelay } from './retry-delay.ts';
import { type Delivery, runDelivery } from './run-delivery.ts';
import { subjectMatches, subjectsOverlap } from './subject-pattern.ts';

export interface InProcessBusOptions {
  /** Wait before redelivering after a handler threw; 1 s doubling up to a minute by default. */
  retryDelay?: RetryDelay;
  onHandlerError?: (
    error: unknown,
    message: { subject: string; msgId: string; deliveryCount: number },
  ) => void;
}

interface StoredMessage {
  seq: number;
  subject: string;
  data: Uint8Array;
  headers: Record<string, string>;
  publishId: string;
  eventId: string;
  storedAt: number;
}

interface StreamState {
  spec: StreamSpec;
  messages: Map<number, StoredMessage>;
  lastSeq: number;
  /** publishId → when it leaves the duplicate window, and the sequence it got. */
  recentIds: Map<string, { until: number; seq: number }>;
  consumers: Map<string, ConsumerState>;
}

interface ConsumerState {
  stream: StreamState;
  spec: ConsumerSpec;
  /** The next sequence never delivered to this durable. */
  nextSeq: number;
  pending: Map<number, Pending>;
  /** Sequences due for redelivery, oldest first (redeliveries go before new messages). */
  due: number[];
  subscribers: Subscriber[];
  turn: number;
}

interface Pending {
  deliveries: number;
  timer?: NodeJS.Timeout;
}

interface Subscriber {
  handler: MessageHandler;
  concurrency: number;
  active: number;
  stopped: boolean;
  inFlight: Set<Promise<void>>;
}

const defaultDuplicateWindowMs = 120_000;

/**
 * The event bus of the single-process mode: everything in memory, with the JetStream
 * adapter's contract (the shared contract suite runs against both). Messages do not
 * survive a restart; the outbox in the database is what does.
 */
export function createInProcessBus(options: InProcessBusOptions = {}): EventBus {
  const retryDelay = options.retryDelay ?? exponentialRetryDelay;
  const streams = new Map<string, StreamState>();
  const subscriptions = new Set<{ stop(): Promise<void> }>();
  let closed = false;
  let closing: Promise<void> | undefined;

  const declare = (spec: StreamSpec) => {
    const existing = streams.get(spec.name);
    if (existing) {
      if ((existing.spec.retention ?? 'limits') !== (spec.retention ?? 'limits')) {
        throw new Error(`stream ${spec.name} exists with another retention`);
      }
      existing.spec = spec;
      return;
    }
    for (const other of streams.values()) {
      for (const subject of spec.subjects) {
        if (other.spec.subjects.some((taken) => subjectsOverlap(taken, subject))) {
          throw new Error(`subjects of stream ${spec.name} overlap those of stream ${other.spec.name}`);
        }
      }
    }
    streams.set(spec.name, {
      spec,
      messages: new Map(),
      lastSeq: 0,
      recentIds: new Map(),
      consumers: new Map(),
    });
  };
  declare({ name: deadLetterStream, subjects: ['deadletter.>'] });

  const dropExpired = (stream: StreamState, now: number) => {
    for (const [id, entry] of stream.recentIds) {
      if (entry.until > now) break;
      stream.recentIds.delete(id);
    }
    const maxAge = stream.spec.maxAgeMs;
    if (maxAge === undefined) return;
    for (const [seq, message] of stream.messages) {
      if (message.storedAt + maxAge > now) break;
      stream.messages.delete(seq);
    }
  };

  const store = (
    subject: string,
    data: Uint8Array,
    publishId: string,
    headers: Record<string, string>,
  ): PublishAck => {
    if (closed) throw new Error('the bus is closed');
    const stream = [...streams.values()].find((s) =>
      s.spec.subjects.some((pattern) => subjectMatches(pattern, subject)),
    );
    if (!stream) throw new Error(`no stream holds subject ${subject}`);
    const now = Date.now();
    dropExpired(stream, now);
    const seen = stream.recentIds.get(publishId);
    if (seen) return { stream: stream.spec.name, seq: seen.seq, duplicate: true };
    const seq = ++stream.lastSeq;
    stream.recentIds.set(publishId, {
      until: now + (stream.spec.duplicateWindowMs ?? defaultDuplicateWindowMs),
      seq,
    });
    const own = Object.fromEntries(Object.entries(headers).filter(([name]) => !isBusHeader(name)));
    const eventId = readHeader(headers, eventIdHeader) ?? publishId;
    stream.messages.set(seq, { seq, subject, data, headers: own, publishId, eventId, storedAt: now });
    for (const consumer of stream.consumers.values()) pump(consumer);
    return { stream: stream.spec.name, seq, duplicate: false };
  };

  const settle = (consumer: ConsumerState, seq: number) => {
    const pending = consumer.pending.get(seq);
    if (!pending) return;
    clearTimeout(pending.timer);
    consumer.pending.delete(seq);
    if (consumer.stream.spec.retention === 'workqueue') consumer.stream.messages.delete(seq);
    pump(consumer);
  };

  const redeliverAfter = (consumer: ConsumerState, seq: number, pending: Pending, delayMs: number) => {
    clearTimeout(pending.timer);
    pending.timer = setTimeout(() => {
      pending.timer = undefined;
      if (consumer.pending.get(seq) !== pending) return;
      const at = consumer.due.findIndex((other) => other > seq);
      consumer.due.splice(at === -1 ? consumer.due.length : at, 0, seq);
      pump(consumer);
    }, delayMs);
    pending.timer.unref();
  };

  const nextMessage = (consumer: ConsumerState): StoredMessage | undefined => {
    const { stream, spec } = consumer;
    while (consumer.due.length > 0) {
      const seq = consumer.due.shift() as number;
      const message = stream.messages.get(seq);
      if (message) return message;
      consumer.pending.delete(seq);
    }
    while (consumer.nextSeq <= stream.lastSeq) {
      const message = stream.messages.get(consumer.nextSeq++);
      if (message && (!spec.filterSubject || subjectMatches(spec.filterSubject, message.subject))) {
        consumer.pending.set(message.seq, { deliveries: 0 });
        return message;
      }
    }
    return undefined;
  };

  const freeSubscriber = (consumer: ConsumerState): Subscriber | undefined => {
    const { subscribers } = consumer;
    for (let i = 0; i < subscribers.length; i++) {
      const candidate = subscribers[(consumer.turn + i) % subscribers.length] as Subscriber;
      if (!candidate.stopped && candidate.active < candidate.concurrency) {
        consumer.turn = (consumer.turn + i + 1) % subscribers.length;
        return candidate;
      }
    }
    return undefined;
  };

  function pump(consumer: ConsumerState) {
    dropExpired(consumer.stream, Date.now());
    for (;;) {
      const subscriber = freeSubscriber(consumer);
      if (!subscriber) return;
      const message = nextMessage(consumer);
      if (!message) return;
      deliver(consumer, subscriber, message);
    }
  }

  const deliver = (consumer: ConsumerState, subscriber: Subscriber, message: StoredMessage) => {
    const { seq } = message;
    const pending = consumer.pending.get(seq) as Pending;
    const deliveryCount = ++pending.deliveries;
    const current = () => consumer.pending.get(seq) === pending && pending.deliveries === deliveryCount;
    redeliverAfter(consumer, seq, pending, consumer.spec.ackWaitMs);
    const delivery: Delivery = {
      subject: message.subject,
      data: message.data,
      eventId: message.eventId,
      publishId: message.publishId,
      headers: { ...message.headers },
      deliveryCount,
      // An ack from a delivery that already timed out still counts, as on JetStream.
      ack: () => settle(consumer, seq),
      term: () => settle(consumer, seq),
      nak: (delayMs) => {
        if (current()) redeliverAfter(consumer, seq, pending, delayMs);
      },
      working: () => {
        if (current()) redeliverAfter(consumer, seq, pending, consumer.spec.ackWaitMs);
      },
    };
    const { name } = consumer.stream.spec;
    const durable = consumer.spec.durable;
    subscriber.active++;
    const run = Promise.resolve()
      .then(() =>
        runDelivery(delivery, subscriber.handler, {
          stream: name,
          consumer: durable,
          maxDeliver: consumer.spec.maxDeliver,
          retryDelay,
          deadLetter: async (failed, reason) => {
            const letter = deadLetterOf(failed, name, durable, reason);
            store(letter.subject, letter.data, letter.msgId, letter.headers);
          },
          onHandlerError: (error, failed) =>
            options.onHandlerError?.(error, {
              subject: failed.subject,
              msgId: failed.eventId,
              deliveryCount,
            }),
        }),
      )
      .finally(() => {
        subscriber.active--;
        subscriber.inFlight.delete(run);
        pump(consumer);
      });
    subscriber.inFlight.add(run);
  };

  const consumerOf = (spec: ConsumerSpec): ConsumerState => {
    const stream = streams.get(spec.stream);
    if (!stream) throw new Error(`stream ${spec.stream} is not declared`);
    const existing = stream.consumers.get(spec.durable);
    if (existing) {
      existing.spec = spec;
      return existing;
    }
    if (stream.spec.retention === 'workqueue') {
      for (const other of stream.consumers.values()) {
        if (subjectsOverlap(other.spec.filterSubject ?? '>', spec.filterSubject ?? '>')) {
          throw new Error(
            `work-queue stream ${spec.stream} already has consumer ${other.spec.durable} for these subjects`,
          );
        }
      }
    }
    const consumer: ConsumerState = {
      stream,
      spec,
      nextSeq: 1,
      pending: new Map(),
      due: [],
      subscribers: [],
      turn: 0,
    };
    stream.consumers.set(spec.durable, consumer);
    return consumer;
  };

  const stopConsumer = (consumer: ConsumerState) => {
    for (const pending of consumer.pending.values()) clearTimeout(pending.timer);
    for (const subscriber of consumer.subscribers) subscriber.stopped = true;
  };

  return {
    async declareStreams(specs) {
      for (const spec of specs) declare(spec);
    },

    async publish(subject, data, { msgId, headers = {} }: PublishOptions) {
      return publishTraced(subject, msgId, headers, async (traced) => store(subject, data, msgId, traced));
    },

    async consume(spec, handler) {
      if (closed) throw new Error('the bus is closed');
      const consumer = consumerOf(spec);
      const subscriber: Subscriber = {
        handler,
        concurrency: spec.concurrency ?? 1,
        active: 0,
        stopped: false,
        inFlight: new Set(),
      };
      consumer.subscribers.push(subscriber);
      const subscription = {
        async stop() {
          subscriber.stopped = true;
          consumer.subscribers = consumer.subscribers.filter((other) => other !== subscriber);
          while (subscriber.inFlight.size > 0) await Promise.all(subscriber.inFlight);
          subscriptions.delete(subscription);
        },
      };
      subscriptions.add(subscription);
      pump(consumer);
      return subscription;
    },

    async hasStream(name) {
      return streams.has(name);
    },

    async deleteStream(name) {
      const stream = streams.get(name);
      if (!stream) return;
      for (const consumer of stream.consumers.values()) stopConsumer(consumer);
      streams.delete(name);
    },

    close() {
      closing ??= (async () => {
        // In-flight handlers may still publish (dead letters included) while they finish.
        await Promise.all([...subscriptions].map((subscription) => subscription.stop()));
        closed = true;
        for (const stream of streams.values()) {
          for (const consumer of stream.consumers.values()) stopConsumer(consumer);
        }
      })();
      return closing;
    },
  };
}
