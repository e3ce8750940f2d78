import { createOutboxRelay, type EventBus, pruneProcessedEvents, startConsumers } from '@mimamori/bus';
import { type Db, migrate } from '@mimamori/db';
import {
  createGrpcServer,
  createMetrics,
  type Logger,
  type Metrics,
  type Shutdown,
  scaledMs,
  startOpsServer,
} from '@mimamori/runtime';
import type { ServiceModule } from './service-module.ts';

export interface ServiceHostDeps {
  /** The database; needed by a module with a schema. */
  db?: Db;
  /** The bus; needed by a module that declares streams, consumes events or has an outbox. */
  bus?: EventBus;
  logger: Logger;
  shutdown: Shutdown;
  grpc: { host: string; port: number };
  /** The ops endpoints (/livez, /readyz, /metrics); none in single-process mode. */
  ops?: { host?: string; port: number };
  metrics?: Metrics;
  /**
   * How long consumed-event records (processed_events) and the module's own sweepable rows are
   * kept, and how often they are swept; 30 days, hourly unless set.
   */
  retention?: { keepMs: number; everyMs?: number };
  /**
   * How many times faster the product's time passes (1 unless set; more only in test runs,
   * MIMAMORI_TIME_SCALE): the consumers' ack waits and the retention sweep's period shrink by it.
   */
  timeScale?: number;
}

/**
 * The shortest a scaled ack wait gets: a handler that sends no heartbeat must finish inside it on
 * a busy machine, or its message is handed out a second time. A handler that does send them
 * (a check loading a page) sends them well within it, whatever ack wait its catalog entry asks.
 */
export const ACK_WAIT_FLOOR_MS = 10_000;

export interface RunningService {
  name: string;
  /** host:port the gRPC server listens on. */
  grpcAddress: string;
  opsUrl?: string;
  /** The URL of the module's HTTP server, when it has one. */
  url?: string;
}

/**
 * Starts one service module: migrations, streams, gRPC, outbox relay, consumers, its HTTP
 * server, ops endpoints. Each part registers its stop with the shared shutdown, so the reverse
 * order applies on SIGTERM: stop taking HTTP requests, stop consuming, stop serving (in-flight
 * calls finish), flush the outbox, then the caller's connections close.
 */
export async function runService(module: ServiceModule, deps: ServiceHostDeps): Promise<RunningService> {
  const { shutdown } = deps;
  const timeScale = deps.timeScale ?? 1;
  const logger = deps.logger.child({ service: module.name });
  const metrics = deps.metrics ?? createMetrics({ service: module.name });

  // Registered first so it is stopped last: /readyz answers 503 from the moment shutdown
  // begins while the rest drains, and /livez stays answered until the end.
  let ops: { url: string; close(): Promise<void> } | undefined;
  shutdown.register(`${module.name} ops`, async () => ops?.close());

  const { schema } = module;
  const db = schema === undefined ? undefined : required(deps.db, `${module.name} keeps a schema`);
  const needsBus = Boolean(module.streams?.length || module.consumers?.length || module.outbox);
  const bus = needsBus ? required(deps.bus, `${module.name} uses the bus`) : undefined;

  if (db && schema !== undefined) {
    const applied = await migrate(db, schema, module.migrations ?? []);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  }
  if (bus && module.streams?.length) await bus.declareStreams(module.streams);

  const server = createGrpcServer({ logger, metrics });
  for (const binding of module.grpc ?? []) server.addService(binding.definition, binding.implementation);
  const grpcPort = await server.start(deps.grpc);
  shutdown.register(`${module.name} grpc`, () => server.shutdown(5_000));

  if (module.outbox && bus) {
    if (!db || schema === undefined)
      throw new Error(`${module.name} has an outbox but no schema to keep it in`);
    const relay = createOutboxRelay({ db, schema, bus, logger });
    relay.start();
    shutdown.register(`${module.name} outbox relay`, () => relay.stop());
  }

  if (module.stop) shutdown.register(`${module.name} domain`, module.stop);

  // Without it processed_events and the like grow by one row per event for ever.
  const keepMs = deps.retention?.keepMs ?? 30 * 86_400_000;
  const sweep = setInterval(
    () => {
      Promise.all([
        db && schema !== undefined ? pruneProcessedEvents(db, schema, keepMs) : undefined,
        module.sweep?.(keepMs),
      ]).catch((error: unknown) =>
        logger.warn({ err: error }, 'retention sweep failed; trying again at the next one'),
      );
    },
    scaledMs(deps.retention?.everyMs ?? 3_600_000, timeScale),
  );
  sweep.unref();
  shutdown.register(`${module.name} retention sweep`, async () => clearInterval(sweep));

  for (const timer of module.timers ?? []) {
    let running: Promise<unknown> | null = null;
    const interval = setInterval(
      () => {
        running ??= timer
          .run()
          .catch((error: unknown) => logger.warn({ err: error, timer: timer.name }, 'timer run failed'))
          .finally(() => {
            running = null;
          });
      },
      scaledMs(timer.everyMs, timeScale),
    );
    interval.unref();
    shutdown.register(`${module.name} ${timer.name}`, async () => {
      clearInterval(interval);
      await running;
    });
  }

  if (bus && module.consumers?.length) {
    const consumers = module.consumers.map((entry) => ({
      ...entry,
      ackWaitMs: scaledMs(entry.ackWaitMs, timeScale, Math.min(entry.ackWaitMs, ACK_WAIT_FLOOR_MS)),
    }));
    const stopConsumers = await startConsumers(bus, consumers);
    shutdown.register(`${module.name} consumers`, stopConsumers);
  }

  // Last to start, first to stop: requests stop coming before what serves them goes away.
  let url: string | undefined;
  if (module.http) {
    const http = module.http;
    url = await http.listen();
    shutdown.register(`${module.name} http`, () => http.close());
  }

  if (deps.ops) {
    ops = await startOpsServer({
      port: deps.ops.port,
      host: deps.ops.host,
      metrics,
      logger,
      readiness: async () => ({
        ...(db ? { database: await db.ping() } : {}),
        ...(module.readiness ? await module.readiness() : {}),
      }),
      isShuttingDown: shutdown.isShuttingDown,
    });
  }
  const opsUrl = ops?.url;

  const grpcAddress = `${deps.grpc.host === '0.0.0.0' ? '127.0.0.1' : deps.grpc.host}:${grpcPort}`;
  logger.info({ grpcAddress, opsUrl, url }, 'service started');
  return { name: module.name, grpcAddress, ...(opsUrl ? { opsUrl } : {}), ...(url ? { url } : {}) };
}

function required<Value>(value: Value | undefined, why: string): Value {
  if (value === undefined) throw new Error(`${why}, but the host was given none`);
  return value;
}
