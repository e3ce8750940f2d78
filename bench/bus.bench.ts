// Publish → handled throughput and latency of the event bus: JetStream (the figure) against
// the in-process bus (the baseline). Bounded: N messages per adapter, one durable. Publishes
// keep a window of acks outstanding, so latencies include queueing at full throughput.
import { randomBytes } from 'node:crypto';
import { createInProcessBus, createJetStreamBus, type EventBus } from '@mimamori/bus';
import { percentile, report } from './report.ts';

const messages = Number(process.env.BENCH_MESSAGES ?? 5_000);
const publishWindow = 100;
const concurrency = 32;

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
  },
);
