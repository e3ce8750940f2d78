import { createOutboxRelay, type EventBus, pruneProcessedEvents, startConsumers } from '@mimamori/bus';
import { type Db, migrate } from '@mimamori/db';
import {
  createGrpcServer,
  createMetrics,
  type Logger,
  type Metrics,
  type Shutdown,
  startOpsServer,
} from '@mimamori/runtime';
import type { ServiceModule } from './service-module.ts';

export interface ServiceHostDeps {
  db: Db;
  bus: EventBus;
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
}

export interface RunningService {
  name: string;
  /** host:port the gRPC server listens on. */
  grpcAddress: string;
  opsUrl?: string;
}

/**
 * Starts one service module: migrations, streams, gRPC, outbox relay, consumers, ops
 * endpoints. Each part registers its stop with the shared shutdown, so the reverse order
 * applies on SIGTERM: stop consuming, stop serving (in-flight calls finish), flush the
 * outbox, then the caller's connections close.
 */
export async function runService(module: ServiceModule, deps: ServiceHostDeps): Promise<RunningService> {
  const { db, bus, shutdown } = deps;
  const logger = deps.logger.child({ service: module.name });
  const metrics = deps.metrics ?? createMetrics({ service: module.name });

  // Registered first so it is stopped last: /readyz answers 503 from the moment shutdown
  // begins while the rest drains, and /livez stays answered until the end.
  let ops: { url: string; close(): Promise<void> } | undefined;
  shutdown.register(`${module.name} ops`, async () => ops?.close());

  const applied = await migrate(db, module.schema, module.migrations);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  if (module.streams?.length) await bus.declareStreams(module.streams);

  const server = createGrpcServer({ logger, metrics });
  for (const binding of module.grpc ?? []) server.addService(binding.definition, binding.implementation);
  const grpcPort = await server.start(deps.grpc);
  shutdown.register(`${module.name} grpc`, () => server.shutdown(5_000));

  if (module.outbox) {
    const relay = createOutboxRelay({ db, schema: module.schema, bus, logger });
    relay.start();
    shutdown.register(`${module.name} outbox relay`, () => relay.stop());
  }

  if (module.stop) shutdown.register(`${module.name} domain`, module.stop);

  // Without it processed_events and the like grow by one row per event for ever.
  const keepMs = deps.retention?.keepMs ?? 30 * 86_400_000;
  const sweep = setInterval(() => {
    Promise.all([pruneProcessedEvents(db, module.schema, keepMs), module.sweep?.(keepMs)]).catch(
      (error: unknown) => logger.warn({ err: error }, 'retention sweep failed; trying again at the next one'),
    );
  }, deps.retention?.everyMs ?? 3_600_000);
  sweep.unref();
  shutdown.register(`${module.name} retention sweep`, async () => clearInterval(sweep));

  if (module.consumers?.length) {
    const stopConsumers = await startConsumers(bus, module.consumers);
    shutdown.register(`${module.name} consumers`, stopConsumers);
  }

  if (deps.ops) {
    ops = await startOpsServer({
      port: deps.ops.port,
      host: deps.ops.host,
      metrics,
      logger,
      readiness: async () => ({
        database: await db.ping(),
        ...(module.readiness ? await module.readiness() : {}),
      }),
      isShuttingDown: shutdown.isShuttingDown,
    });
  }
  const opsUrl = ops?.url;

  const grpcAddress = `${deps.grpc.host === '0.0.0.0' ? '127.0.0.1' : deps.grpc.host}:${grpcPort}`;
  logger.info({ grpcAddress, opsUrl }, 'service started');
  return { name: module.name, grpcAddress, ...(opsUrl ? { opsUrl } : {}) };
}
