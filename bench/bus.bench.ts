// Publish → handled throughput and latency of the event bus: JetStream (the figure) against
// the in-process bus (the baseline). Bounded: N messages per adapter, one durable. Publishes
// keep a window of acks outstanding, so latencies include queueing at full throughput.
// Then the ceiling of acked publishes alone (no consumer), as the scheduler dispatches into the
// CHECKS work queue: one stream, the same load spread over several streams (on one connection and
// on one connection each), and one message carrying a batch of checks.
import { randomBytes } from 'node:crypto';
import { createInProcessBus, createJetStreamBus, type EventBus } from '@mimamori/bus';
import { percentile, report } from './report.ts';

const messages = Number(process.env.BENCH_MESSAGES ?? 5_000);
const publishWindow = 100;
const concurrency = 32;
const ceilingMessages = Number(process.env.BENCH_CEILING_MESSAGES ?? 20_000);
const partitions = 4;
const checksPerBatch = 50;
/** A checks.run of one HTTP area (the scheduler bench's template, with a real URL), rounded up. */
const checkBytes = 300;

interface Run {
  seconds: number;
  throughput: number;
  p50Ms: number;
  p99Ms: number;
}

async function measure(bus: EventBus): Promise<Run> {
  const stream = `BENCH${randomBytes(4).toString('hex')}`;
  const subject = `${stream.toLowerCase()}.event`;
  await bus.declareStreams([{ name: stream, subjects: [`${stream.toLowerCase()}.>`] }]);
  const sentAt = new Float64Array(messages);
  const latencies: number[] = [];
  let allHandled: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    allHandled = resolve;
  });
  const consumption = await bus.consume(
    { stream, durable: 'bench', ackWaitMs: 30_000, maxDeliver: 3, concurrency },
    async (message) => {
      const index = new DataView(message.data.buffer, message.data.byteOffset).getUint32(0);
      latencies.push(performance.now() - (sentAt[index] as number));
      if (latencies.length === messages) allHandled();
    },
  );
  const started = performance.now();
  const inFlight = new Set<Promise<unknown>>();
  for (let i = 0; i < messages; i++) {
    const data = new Uint8Array(64);
    new DataView(data.buffer).setUint32(0, i);
    sentAt[i] = performance.now();
    const publishing = bus
      .publish(subject, data, { msgId: `bench-${i}` })
      .finally(() => inFlight.delete(publishing));
    inFlight.add(publishing);
    if (inFlight.size >= publishWindow) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  await done;
  const seconds = (performance.now() - started) / 1000;
  await consumption.stop();
  await bus.deleteStream(stream);
  return {
    seconds,
    throughput: messages / seconds,
    p50Ms: Number(percentile(latencies, 0.5).toFixed(2)),
    p99Ms: Number(percentile(latencies, 0.99).toFixed(2)),
  };
}

const inProcessBus = createInProcessBus();
const inProcess = await measure(inProcessBus);
await inProcessBus.close();

const jetStreamBus = await createJetStreamBus({
  servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  name: 'bench-bus',
});
const jetStream = await measure(jetStreamBus);
await jetStreamBus.close();

interface Ceiling {
  setup: string;
  streams: number;
  connections: number;
  payloadBytes: number;
  checksPerMessage: number;
  publishesPerSecond: number;
  checksPerSecond: number;
}

/** Acked publishes per second into work-queue streams like CHECKS, `publishWindow` acks outstanding in all. */
async function measureCeiling(
  setup: string,
  streamCount: number,
  connections: number,
  checksPerMessage: number,
): Promise<Ceiling> {
  const buses = await Promise.all(
    Array.from({ length: connections }, (_, index) =>
      createJetStreamBus({
        servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
        name: `bench-bus-ceiling-${index}`,
      }),
    ),
  );
  const prefix = `BENCH${randomBytes(4).toString('hex')}`;
  const names = Array.from({ length: streamCount }, (_, index) => `${prefix}_${index}`);
  const first = buses[0] as EventBus;
  await first.declareStreams(
    names.map((name) => ({
      name,
      subjects: [`${name.toLowerCase()}.>`],
      retention: 'workqueue' as const,
      duplicateWindowMs: 10 * 60_000,
    })),
  );
  const payload = randomBytes(checkBytes * checksPerMessage);
  const inFlight = new Set<Promise<unknown>>();
  const started = performance.now();
  for (let i = 0; i < ceilingMessages; i++) {
    const stream = names[i % streamCount] as string;
    const bus = buses[i % connections] as EventBus;
    const publishing = bus
      .publish(`${stream.toLowerCase()}.run`, payload, { msgId: `ceiling-${i}` })
      .finally(() => inFlight.delete(publishing));
    inFlight.add(publishing);
    if (inFlight.size >= publishWindow) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - started) / 1000;
  for (const name of names) await first.deleteStream(name);
  await Promise.all(buses.map((bus) => bus.close()));
  return {
    setup,
    streams: streamCount,
    connections,
    payloadBytes: payload.byteLength,
    checksPerMessage,
    publishesPerSecond: Math.round(ceilingMessages / seconds),
    checksPerSecond: Math.round((ceilingMessages * checksPerMessage) / seconds),
  };
}

const ceilings = [
  await measureCeiling('one stream', 1, 1, 1),
  await measureCeiling(`${partitions} streams, one connection`, partitions, 1, 1),
  await measureCeiling(`${partitions} streams, a connection each`, partitions, partitions, 1),
  await measureCeiling(`one stream, ${checksPerBatch} checks a message`, 1, 1, checksPerBatch),
];
console.log(
  `\nJetStream: acked publishes into work-queue streams, no consumer, ${ceilingMessages} messages, ${publishWindow} acks outstanding\n`,
);
console.table(ceilings);

const row = (adapter: string, run: Run) => ({
  adapter,
  messages,
  seconds: Number(run.seconds.toFixed(2)),
  'msgs/s': Math.round(run.throughput),
  'p50 ms': run.p50Ms,
  'p99 ms': run.p99Ms,
});
report(
  `event bus: publish → handled, ${messages} messages, publish window ${publishWindow}, concurrency ${concurrency}`,
  [row('jetstream', jetStream), row('in-process (baseline)', inProcess)],
  {
    bench: 'bus',
    messages,
    jetstream: {
      msgsPerSecond: Math.round(jetStream.throughput),
      p50Ms: jetStream.p50Ms,
      p99Ms: jetStream.p99Ms,
    },
    inProcess: {
      msgsPerSecond: Math.round(inProcess.throughput),
      p50Ms: inProcess.p50Ms,
      p99Ms: inProcess.p99Ms,
    },
    jetstreamToInProcessThroughput: Number((jetStream.throughput / inProcess.throughput).toFixed(3)),
    ceiling: {
      messages: ceilingMessages,
      publishWindow,
      runs: ceilings,
    },
  },
);
