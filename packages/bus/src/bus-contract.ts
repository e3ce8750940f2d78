import { randomBytes } from 'node:crypto';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type BusMessage,
  type ConsumerSpec,
  deadLetterStream,
  deadLetterSubject,
  type EventBus,
} from './event-bus.ts';
import { deadLetterHeaders } from './message-headers.ts';
import type { RetryDelay } from './retry-delay.ts';

export interface BusUnderTest {
  /** Kept short so the suite does not wait for the production backoff. */
  retryDelay: RetryDelay;
}

/** The durable the suite reads a stream's dead letters with; cleanups delete it. */
export const deadLetterProbe = (stream: string) => `dl-${stream}`;

const ackWaitMs = 400;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const text = (message: BusMessage) => decoder.decode(message.data);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(10);
  }
}

function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * The behaviour every EventBus adapter must have, as one vitest suite: the in-process bus
 * runs it as a unit test, the JetStream bus against the real server. Each test uses its
 * own streams; `cleanup` receives their names once the test's buses are closed.
 */
export function describeBusContract(
  name: string,
  makeBus: (options: BusUnderTest) => Promise<EventBus>,
  cleanup?: (streams: string[]) => Promise<void>,
) {
  describe(`EventBus contract: ${name}`, () => {
    let buses: EventBus[] = [];
    let streams: string[] = [];

    const openBus = async () => {
      const bus = await makeBus({ retryDelay: () => 100 });
      buses.push(bus);
      return bus;
    };

    /** A fresh stream `S…` holding subjects `s….>`, declared on `bus`. */
    const freshStream = async (bus: EventBus, retention: 'limits' | 'workqueue' = 'limits') => {
      const stream = `S${randomBytes(5).toString('hex')}`;
      streams.push(stream);
      await bus.declareStreams([{ name: stream, subjects: [`${stream.toLowerCase()}.>`], retention }]);
      const subject = (leaf: string) => `${stream.toLowerCase()}.${leaf}`;
      const spec = (durable: string, more: Partial<ConsumerSpec> = {}): ConsumerSpec => ({
        stream,
        durable,
        ackWaitMs,
        maxDeliver: 5,
        ...more,
      });
      const publish = (
        leaf: string,
        body: string,
        msgId = `${leaf}-${body}`,
        headers?: Record<string, string>,
      ) => bus.publish(subject(leaf), encoder.encode(body), { msgId, ...(headers ? { headers } : {}) });
      return { stream, subject, spec, publish };
    };

    const collectDeadLetters = async (bus: EventBus, stream: string) => {
      const letters: BusMessage[] = [];
      await bus.consume(
        {
          stream: deadLetterStream,
          durable: deadLetterProbe(stream),
          filterSubject: `deadletter.${stream}.>`,
          ackWaitMs: 5_000,
          maxDeliver: 5,
        },
        async (message) => {
          letters.push(message);
        },
      );
      return letters;
    };

    afterEach(async () => {
      await Promise.all(buses.map((bus) => bus.close()));
      await cleanup?.(streams);
      buses = [];
      streams = [];
    });

    it('delivers a published message with its subject, data, event id and headers, and acks it when the handler returns', async () => {
      const bus = await openBus();
      const { spec, publish, subject } = await freshStream(bus);
      const seen: BusMessage[] = [];
      await bus.consume(spec('reader'), async (message) => {
        seen.push(message);
      });
      const ack = await publish('created', 'a', 'event-a', { 'x-origin': 'contract' });
      expect(ack.duplicate).toBe(false);
      await waitUntil(() => seen.length === 1, 'the first delivery');
      expect(seen[0]).toMatchObject({ subject: subject('created'), msgId: 'event-a', deliveryCount: 1 });
      expect(text(seen[0] as BusMessage)).toBe('a');
      expect(seen[0]?.headers['x-origin']).toBe('contract');

      // Longer than the ack wait: an unacked message would be redelivered before the marker.
      await sleep(ackWaitMs * 2.5);
      await publish('created', 'marker');
      await waitUntil(() => seen.some((m) => text(m) === 'marker'), 'the marker');
      expect(seen.filter((m) => text(m) === 'a')).toHaveLength(1);
    });

    it('redelivers a nak with delay only after the delay', async () => {
      const bus = await openBus();
      const { spec, publish } = await freshStream(bus);
      const delayMs = 1_200;
      const order: string[] = [];
      let nakAt = 0;
      let redeliveredAt = 0;
      await bus.consume(spec('reader'), async (message) => {
        order.push(`${text(message)}#${message.deliveryCount}`);
        if (text(message) === 'a' && message.deliveryCount === 1) {
          nakAt = performance.now();
          message.nak(delayMs);
          // Published halfway through the delay: it must be handled before the redelivery.
          setTimeout(() => void publish('x', 'b'), delayMs / 2);
        } else if (text(message) === 'a') {
          redeliveredAt = performance.now();
        }
      });
      await publish('x', 'a');
      await waitUntil(() => order.includes('a#2'), 'the redelivery');
      expect(order).toEqual(['a#1', 'b#1', 'a#2']);
      expect(redeliveredAt - nakAt).toBeGreaterThanOrEqual(delayMs * 0.8);
    });

    it('redelivers a message neither acked nor nak’d within the ack wait, even while the first handler still runs', async () => {
      const bus = await openBus();
      const { spec, publish } = await freshStream(bus);
      const release = gate();
      const counts: number[] = [];
      let firstStillRunning = false;
      let firstDone = false;
      await bus.consume(spec('reader', { concurrency: 2 }), async (message) => {
        counts.push(message.deliveryCount);
        if (message.deliveryCount === 1) {
          await release.opened;
          firstDone = true;
        } else {
          firstStillRunning = !firstDone;
        }
      });
      await publish('x', 'slow');
      await waitUntil(() => counts.includes(2), 'the redelivery after the ack wait');
      release.open();
      expect(firstStillRunning).toBe(true);
      expect(counts).toEqual([1, 2]);
    });

    it('does not redeliver while the handler reports it is still working', async () => {
      const bus = await openBus();
      const { spec, publish } = await freshStream(bus);
      const seen: string[] = [];
      await bus.consume(spec('reader', { concurrency: 2 }), async (message) => {
        seen.push(`${text(message)}#${message.deliveryCount}`);
        if (text(message) !== 'long') return;
        for (let elapsed = 0; elapsed < ackWaitMs * 3; elapsed += ackWaitMs / 4) {
          await sleep(ackWaitMs / 4);
          message.working();
        }
      });
      await publish('x', 'long');
      await waitUntil(() => seen.length === 1, 'the long job');
      await sleep(ackWaitMs * 3.5);
      await publish('x', 'marker');
      await waitUntil(() => seen.includes('marker#1'), 'the marker');
      expect(seen.filter((entry) => entry.startsWith('long'))).toEqual(['long#1']);
    });

    it('naks a throwing handler with backoff and redelivers it', async () => {
      const bus = await openBus();
      const { spec, publish } = await freshStream(bus);
      const counts: number[] = [];
      await bus.consume(spec('reader'), async (message) => {
        counts.push(message.deliveryCount);
        if (message.deliveryCount === 1) throw new Error('transient');
      });
      await publish('x', 'a');
      await waitUntil(() => counts.length === 2, 'the retry');
      await sleep(ackWaitMs * 2);
      expect(counts).toEqual([1, 2]);
    });

    it('sends a message that failed maxDeliver times to the dead-letter stream, saying where it came from', async () => {
      const bus = await openBus();
      const { stream, spec, publish, subject } = await freshStream(bus);
      const letters = await collectDeadLetters(bus, stream);
      const counts: number[] = [];
      await bus.consume(spec('always-fails', { maxDeliver: 3 }), async (message) => {
        counts.push(message.deliveryCount);
        throw new Error('permanent');
      });
      await publish('failing', 'poison', 'event-poison', { 'x-origin': 'contract' });
      await waitUntil(() => letters.length === 1, 'the dead letter');
      const letter = letters[0] as BusMessage;
      expect(letter.subject).toBe(deadLetterSubject(stream, subject('failing')));
      expect(text(letter)).toBe('poison');
      expect(letter.msgId).toBe('event-poison');
      expect(letter.headers).toMatchObject({
        'x-origin': 'contract',
        [deadLetterHeaders.stream]: stream,
        [deadLetterHeaders.subject]: subject('failing'),
        [deadLetterHeaders.consumer]: 'always-fails',
        [deadLetterHeaders.deliveries]: '3',
      });
      expect(letter.headers[deadLetterHeaders.reason]).toContain('permanent');
      await sleep(ackWaitMs * 2);
      expect(counts).toEqual([1, 2, 3]);
      expect(letters).toHaveLength(1);
    });

    it('dead-letters a termed message at once, with its reason', async () => {
      const bus = await openBus();
      const { stream, spec, publish } = await freshStream(bus);
      const letters = await collectDeadLetters(bus, stream);
      const counts: number[] = [];
      await bus.consume(spec('terminator'), async (message) => {
        counts.push(message.deliveryCount);
        message.term('malformed payload');
      });
      await publish('x', 'bad');
      await waitUntil(() => letters.length === 1, 'the dead letter');
      expect(letters[0]?.headers[deadLetterHeaders.reason]).toBe('malformed payload');
      await sleep(ackWaitMs * 2);
      expect(counts).toEqual([1]);
    });

    it('dead-letters a message whose last allowed delivery timed out', async () => {
      const bus = await openBus();
      const { stream, spec, publish } = await freshStream(bus);
      const letters = await collectDeadLetters(bus, stream);
      const release = gate();
      const counts: number[] = [];
      await bus.consume(spec('hangs', { maxDeliver: 2, concurrency: 3 }), async (message) => {
        counts.push(message.deliveryCount);
        await release.opened;
      });
      await publish('x', 'stuck');
      await waitUntil(() => letters.length === 1, 'the dead letter');
      release.open();
      expect(letters[0]?.headers[deadLetterHeaders.reason]).toContain('not acknowledged');
      expect(counts).toEqual([1, 2]);
    });

    it('drops a message whose msgId was already published within the duplicate window', async () => {
      const bus = await openBus();
      const { spec, publish } = await freshStream(bus);
      const first = await publish('x', 'a', 'same-id');
      const second = await publish('x', 'a', 'same-id');
      expect(first.duplicate).toBe(false);
      expect(second).toMatchObject({ duplicate: true, seq: first.seq });
      await publish('x', 'marker');
      const seen: string[] = [];
      await bus.consume(spec('reader'), async (message) => {
        seen.push(text(message));
      });
      await waitUntil(() => seen.includes('marker'), 'the marker');
      expect(seen).toEqual(['a', 'marker']);
    });

    it('shares the messages of one durable between its consumers, each message once', async () => {
      const bus = await openBus();
      const { spec, publish } = await freshStream(bus);
      const byConsumer: [string[], string[]] = [[], []];
      for (const handled of byConsumer) {
        await bus.consume(spec('workers'), async (message) => {
          handled.push(text(message));
          await sleep(40);
        });
      }
      const bodies = Array.from({ length: 12 }, (_, i) => `m${i}`);
      for (const body of bodies) await publish('x', body);
      await waitUntil(() => byConsumer[0].length + byConsumer[1].length >= bodies.length, 'all messages');
      await sleep(ackWaitMs * 2);
      expect([...byConsumer[0], ...byConsumer[1]].sort()).toEqual([...bodies].sort());
      expect(byConsumer[0].length).toBeGreaterThan(0);
      expect(byConsumer[1].length).toBeGreaterThan(0);
    });

    it('gives every message to each of two durables', async () => {
      const bus = await openBus();
      const { spec, publish } = await freshStream(bus);
      const seen = { mail: [] as string[], audit: [] as string[] };
      for (const durable of ['mail', 'audit'] as const) {
        await bus.consume(spec(durable), async (message) => {
          seen[durable].push(text(message));
        });
      }
      for (const body of ['a', 'b', 'c']) await publish('x', body);
      await waitUntil(() => seen.mail.length === 3 && seen.audit.length === 3, 'both durables');
      expect(seen).toEqual({ mail: ['a', 'b', 'c'], audit: ['a', 'b', 'c'] });
    });

    it('starts a new durable at the beginning of the stream and keeps a stopped durable’s place', async () => {
      const bus = await openBus();
      const { spec, publish } = await freshStream(bus);
      await publish('x', 'before');
      const seen: string[] = [];
      const first = await bus.consume(spec('late'), async (message) => {
        seen.push(text(message));
      });
      await waitUntil(() => seen.length === 1, 'the earlier message');
      await first.stop();
      await publish('x', 'while-stopped');
      await bus.consume(spec('late'), async (message) => {
        seen.push(text(message));
      });
      await waitUntil(() => seen.length === 2, 'the message published while stopped');
      expect(seen).toEqual(['before', 'while-stopped']);
    });

    it('delivers to a filtered consumer only the subjects it asked for', async () => {
      const bus = await openBus();
      const { spec, publish, subject } = await freshStream(bus);
      const seen: string[] = [];
      await bus.consume(spec('created-only', { filterSubject: subject('created') }), async (message) => {
        seen.push(text(message));
      });
      await publish('deleted', 'ignored');
      await publish('created', 'wanted');
      await waitUntil(() => seen.length >= 1, 'the created message');
      await sleep(ackWaitMs);
      expect(seen).toEqual(['wanted']);
    });

    it('runs at most `concurrency` handlers at once', async () => {
      const bus = await openBus();
      const { spec, publish } = await freshStream(bus);
      for (let i = 0; i < 6; i++) await publish('x', `m${i}`);
      let running = 0;
      let most = 0;
      let done = 0;
      await bus.consume(spec('parallel', { concurrency: 3, ackWaitMs: 5_000 }), async () => {
        running++;
        most = Math.max(most, running);
        await sleep(150);
        running--;
        done++;
      });
      await waitUntil(() => done === 6, 'all six');
      expect(most).toBe(3);
    });

    it('lets an in-flight handler finish when the bus closes', async () => {
      const bus = await openBus();
      const { spec, publish } = await freshStream(bus);
      let started = false;
      let finished = false;
      await bus.consume(spec('graceful'), async () => {
        started = true;
        await sleep(300);
        finished = true;
      });
      await publish('x', 'in-flight');
      await waitUntil(() => started, 'the handler to start');
      await bus.close();
      expect(finished).toBe(true);
    });

    it('lets an in-flight handler finish when its consumer stops, and its ack holds', async () => {
      const bus = await openBus();
      const { spec, publish } = await freshStream(bus);
      let started = false;
      let finished = false;
      const consumption = await bus.consume(spec('graceful'), async () => {
        started = true;
        await sleep(300);
        finished = true;
      });
      await publish('x', 'in-flight');
      await waitUntil(() => started, 'the handler to start');
      await consumption.stop();
      expect(finished).toBe(true);

      // After the ack wait, an unacked message would come back before the marker.
      await sleep(ackWaitMs * 2);
      await publish('x', 'marker');
      const seen: string[] = [];
      await bus.consume(spec('graceful'), async (message) => {
        seen.push(text(message));
      });
      await waitUntil(() => seen.includes('marker'), 'the marker');
      expect(seen).toEqual(['marker']);
    });

    it('refuses a second consumer of the same subjects on a work-queue stream', async () => {
      const bus = await openBus();
      const { spec } = await freshStream(bus, 'workqueue');
      await bus.consume(spec('crawler'), async () => undefined);
      await expect(bus.consume(spec('other'), async () => undefined)).rejects.toThrow();
    });

    it('refuses to publish outside any stream and to consume an undeclared stream', async () => {
      const bus = await openBus();
      const missing = `S${randomBytes(5).toString('hex')}`;
      await expect(
        bus.publish(`${missing.toLowerCase()}.x`, encoder.encode('lost'), { msgId: 'lost' }),
      ).rejects.toThrow();
      expect(await bus.hasStream(missing)).toBe(false);
      await expect(
        bus.consume({ stream: missing, durable: 'x', ackWaitMs, maxDeliver: 1 }, async () => undefined),
      ).rejects.toThrow(/not declared/);
    });

    describe('with OpenTelemetry registered', () => {
      const exporter = new InMemorySpanExporter();
      const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });

      beforeAll(() => {
        trace.disable();
        context.disable();
        propagation.disable();
        trace.setGlobalTracerProvider(provider);
        context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
        propagation.setGlobalPropagator(new W3CTraceContextPropagator());
      });

      afterAll(async () => {
        await provider.shutdown();
        trace.disable();
        context.disable();
        propagation.disable();
      });

      it('runs the handler in a CONSUMER span that continues the publisher’s trace', async () => {
        const bus = await openBus();
        const { spec, publish } = await freshStream(bus);
        let handlerTraceId: string | undefined;
        await bus.consume(spec('traced'), async () => {
          handlerTraceId = trace.getActiveSpan()?.spanContext().traceId;
        });
        const tracer = trace.getTracer('contract');
        const publisherTraceId = await tracer.startActiveSpan('request', async (span) => {
          await publish('x', 'traced');
          span.end();
          return span.spanContext().traceId;
        });
        const consumerSpan = () =>
          exporter.getFinishedSpans().find((span) => span.kind === SpanKind.CONSUMER);
        await waitUntil(() => consumerSpan() !== undefined, 'the consumer span');
        expect(handlerTraceId).toBe(publisherTraceId);
        expect(consumerSpan()?.spanContext().traceId).toBe(publisherTraceId);
        expect(consumerSpan()?.parentSpanContext?.spanId).toBe(
          exporter
            .getFinishedSpans()
            .find((span) => span.kind === SpanKind.PRODUCER)
            ?.spanContext().spanId,
        );
      });
    });
  });
}
