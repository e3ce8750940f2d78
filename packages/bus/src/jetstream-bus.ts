import {
  AckPolicy,
  type ConsumerConfig,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamManager,
  type JsMsg,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
} from '@nats-io/jetstream';
import { connect, nanos, headers as natsHeaders } from '@nats-io/transport-node';
import { deadLetterOf } from './dead-letter.ts';
import {
  type ConsumerSpec,
  type Consumption,
  deadLetterStream,
  type EventBus,
  type MessageHandler,
  type StreamSpec,
} from './event-bus.ts';
import { eventIdHeader, isBusHeader, readHeader } from './message-headers.ts';
import { publishTraced } from './message-tracing.ts';
import { exponentialRetryDelay, type RetryDelay } from './retry-delay.ts';
import { type Delivery, type DeliveryRules, runDelivery } from './run-delivery.ts';

export interface JetStreamBusOptions {
  servers: string | string[];
  /** The connection name the NATS server shows, e.g. `mimamori-account`. */
  name?: string;
  /** Wait before redelivering after a handler threw; 1 s doubling up to a minute by default. */
  retryDelay?: RetryDelay;
  onHandlerError?: (
    error: unknown,
    message: { subject: string; msgId: string; deliveryCount: number },
  ) => void;
}

const defaultDuplicateWindowMs = 120_000;

/** The cluster-mode event bus on NATS JetStream: streams, durable pull consumers, dead letters. */
export async function createJetStreamBus(options: JetStreamBusOptions): Promise<EventBus> {
  const connection = await connect({
    servers: options.servers,
    ...(options.name ? { name: options.name } : {}),
    // The client gives up after 10 tries 2 s apart by default: a NATS restart longer than that
    // would leave the service up but deaf for good. It keeps trying; consumers resume after.
    maxReconnectAttempts: -1,
  });
  const js = jetstream(connection);
  const jsm = await jetstreamManager(connection);
  const retryDelay = options.retryDelay ?? exponentialRetryDelay;
  const consumptions = new Set<Consumption>();
  let closing: Promise<void> | undefined;
  await ensureStream(jsm, { name: deadLetterStream, subjects: ['deadletter.>'] });

  const publishRaw = async (
    subject: string,
    data: Uint8Array,
    msgId: string,
    headers: Record<string, string>,
  ) => {
    const carried = natsHeaders();
    for (const [name, value] of Object.entries(headers)) carried.set(name, value);
    try {
      const ack = await js.publish(subject, data, { msgID: msgId, headers: carried });
      return { stream: ack.stream, seq: ack.seq, duplicate: ack.duplicate };
    } catch (error) {
      throw new Error(
        `publishing to ${subject} failed (is it in a declared stream?): ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  };

  const rulesFor = (spec: ConsumerSpec): DeliveryRules => ({
    stream: spec.stream,
    consumer: spec.durable,
    maxDeliver: spec.maxDeliver,
    retryDelay,
    deadLetter: async (failed, reason) => {
      const letter = deadLetterOf(failed, spec.stream, spec.durable, reason);
      await publishRaw(letter.subject, letter.data, letter.msgId, letter.headers);
    },
    onHandlerError: (error, failed) =>
      options.onHandlerError?.(error, {
        subject: failed.subject,
        msgId: failed.eventId,
        deliveryCount: failed.deliveryCount,
      }),
  });

  return {
    async declareStreams(specs) {
      for (const spec of specs) await ensureStream(jsm, spec);
    },

    async publish(subject, data, { msgId, headers = {} }) {
      return publishTraced(subject, msgId, headers, (traced) => publishRaw(subject, data, msgId, traced));
    },

    async consume(spec, handler) {
      await ensureConsumer(jsm, spec);
      const consumption = await startPulling(js, spec, handler, rulesFor(spec), () =>
        consumptions.delete(consumption),
      );
      consumptions.add(consumption);
      return consumption;
    },

    async hasStream(name) {
      try {
        await jsm.streams.info(name);
        return true;
      } catch (error) {
        if (isStreamNotFound(error)) return false;
        throw error;
      }
    },

    async deleteStream(name) {
      try {
        await jsm.streams.delete(name);
      } catch (error) {
        if (!isStreamNotFound(error)) throw error;
      }
    },

    close() {
      closing ??= (async () => {
        await Promise.all([...consumptions].map((consumption) => consumption.stop()));
        // Draining flushes the acks and publishes the handlers sent on their way out.
        await connection.drain();
      })();
      return closing;
    },
  };
}

async function startPulling(
  js: ReturnType<typeof jetstream>,
  spec: ConsumerSpec,
  handler: MessageHandler,
  rules: DeliveryRules,
  onStopped: () => void,
): Promise<Consumption> {
  const consumer = await js.consumers.get(spec.stream, spec.durable);
  const concurrency = spec.concurrency ?? 1;
  // The client buffers at most one batch: a buffered message's ack timer is already running.
  // It asks for more once a quarter of the batch is left, not three quarters (the client's
  // default): a pull request every few messages was a large part of the server's work per
  // check (ADR 0037).
  const messages = await consumer.consume({
    max_messages: concurrency,
    threshold_messages: Math.floor(concurrency / 4),
  });
  const slots = createSlots(concurrency);
  const inFlight = new Set<Promise<void>>();
  const handling = new Map<number, Handling>();
  let stopping = false;

  const loop = (async () => {
    for await (const message of messages) {
      const running = handling.get(message.seq);
      if (running && Date.now() - running.aliveAt < spec.ackWaitMs / 2) {
        // The server handed over again a message a handler here holds, far inside its ack
        // wait: nats-server 2.9 sent one check to a crawler twice, 0.1 s apart, after the
        // crawler that held it before was killed with a pull request open. A second run would
        // repeat the work; the running one settles this delivery instead. A redelivery because
        // the ack wait lapsed without a heartbeat still runs, as the bus contract says; half
        // the ack wait leaves room for the time a delivery takes to get here.
        running.latest = message;
        running.aliveAt = Date.now();
        continue;
      }
      const granted = !stopping && (await slots.take());
      if (granted && stopping) slots.give();
      if (!granted || stopping) {
        // Hand it straight back so another replica takes it now rather than after ack_wait.
        message.nak();
        continue;
      }
      const entry: Handling = { latest: message, aliveAt: Date.now() };
      handling.set(message.seq, entry);
      const run = runDelivery(deliveryOf(entry, spec.stream), handler, rules).finally(() => {
        if (handling.get(message.seq) === entry) handling.delete(message.seq);
        inFlight.delete(run);
        slots.give();
      });
      inFlight.add(run);
    }
  })();

  return {
    async stop() {
      if (stopping) return;
      stopping = true;
      slots.wakeAll();
      await messages.close();
      await loop;
      while (inFlight.size > 0) await Promise.all(inFlight);
      onStopped();
    },
  };
}

/** A message a handler here is running; later deliveries of it are settled through it. */
interface Handling {
  /** The newest delivery: the server's record of the message follows it. */
  latest: JsMsg;
  /** When the server last heard the message is being handled (received, or working()). */
  aliveAt: number;
}

function deliveryOf(handling: Handling, stream: string): Delivery {
  const message = handling.latest;
  const all: Record<string, string> = {};
  for (const name of message.headers?.keys() ?? []) all[name] = message.headers?.get(name) ?? '';
  const publishId = readHeader(all, 'Nats-Msg-Id') ?? `${stream}:${message.seq}`;
  return {
    subject: message.subject,
    data: message.data,
    eventId: readHeader(all, eventIdHeader) ?? publishId,
    publishId,
    headers: Object.fromEntries(Object.entries(all).filter(([name]) => !isBusHeader(name))),
    deliveryCount: message.info.deliveryCount,
    pending: message.info.pending,
    ack: () => handling.latest.ack(),
    nak: (delayMs) => handling.latest.nak(delayMs),
    term: () => handling.latest.term(),
    working: () => {
      handling.aliveAt = Date.now();
      handling.latest.working();
    },
  };
}

async function ensureStream(jsm: JetStreamManager, spec: StreamSpec): Promise<void> {
  const wanted = {
    subjects: spec.subjects,
    duplicate_window: nanos(spec.duplicateWindowMs ?? defaultDuplicateWindowMs),
    max_age: nanos(spec.maxAgeMs ?? 0),
  };
  const retention = spec.retention === 'workqueue' ? RetentionPolicy.Workqueue : RetentionPolicy.Limits;
  let config: StreamConfig;
  try {
    config = (await jsm.streams.info(spec.name)).config;
  } catch (error) {
    if (!isStreamNotFound(error)) throw error;
    try {
      await jsm.streams.add({ name: spec.name, retention, storage: StorageType.File, ...wanted });
      return;
    } catch (addError) {
      // Another replica may have created it at the same moment; compare with what it made.
      config = (await jsm.streams.info(spec.name).catch(() => Promise.reject(addError))).config;
    }
  }
  if (config.retention !== retention) {
    throw new Error(`stream ${spec.name} exists with retention ${config.retention}, declared ${retention}`);
  }
  const same =
    [...config.subjects].sort().join(' ') === [...wanted.subjects].sort().join(' ') &&
    config.duplicate_window === wanted.duplicate_window &&
    config.max_age === wanted.max_age;
  if (!same) await jsm.streams.update(spec.name, { ...config, ...wanted });
}

async function ensureConsumer(jsm: JetStreamManager, spec: ConsumerSpec): Promise<void> {
  const config: Partial<ConsumerConfig> = {
    durable_name: spec.durable,
    ack_policy: AckPolicy.Explicit,
    ack_wait: nanos(spec.ackWaitMs),
    // Unlimited on the server: the delivery limit is kept by runDelivery, which dead-letters
    // instead of letting the server drop the message silently.
    max_deliver: -1,
    deliver_policy: DeliverPolicy.All,
    ...(spec.filterSubject ? { filter_subject: spec.filterSubject } : {}),
  };
  try {
    await jsm.consumers.add(spec.stream, config);
  } catch (error) {
    if (isStreamNotFound(error)) throw new Error(`stream ${spec.stream} is not declared`, { cause: error });
    throw new Error(`consumer ${spec.durable} on ${spec.stream} refused: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function isStreamNotFound(error: unknown): boolean {
  return error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound;
}

/** Counts handlers running at once; `take` waits for a free one (false when woken to stop). */
function createSlots(size: number) {
  let free = size;
  let waiters: ((granted: boolean) => void)[] = [];
  return {
    async take(): Promise<boolean> {
      if (free > 0) {
        free--;
        return true;
      }
      return new Promise<boolean>((resolve) => waiters.push(resolve));
    },
    give() {
      const next = waiters.shift();
      if (next) next(true);
      else free++;
    },
    wakeAll() {
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake(false);
    },
  };
}
