import { createJetStreamBus, type EventBus, namespacedBus } from '@mimamori/bus';
import { type Db, openDatabase } from '@mimamori/db';
import {
  createLogger,
  createMetrics,
  createShutdown,
  type Logger,
  loadConfig,
  type Metrics,
  runtimeEnv,
  type Shutdown,
  startTelemetry,
} from '@mimamori/runtime';
import { z } from 'zod';
import { runService, type ServiceHostDeps } from './run-service.ts';
import type { ServiceModule } from './service-module.ts';

/** The variables every service process reads, on top of the runtime's own. */
export const serviceProcessEnv = {
  ...runtimeEnv,
  // PostgreSQL of record (postgres://…); the service uses only its own schema.
  DATABASE_URL: z.string().min(1),
  // NATS with JetStream carrying events and work queues.
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  // Prefix for stream and subject names, so several environments (or test runs) can share
  // one NATS server without seeing each other's events.
  BUS_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9_]*$/, 'lowercase letters, digits and _ only')
    .default(''),
  // Days a service keeps the record of consumed events (processed_events) and its other
  // bookkeeping rows (the notifier's deliveries, error streaks) before a sweep deletes them.
  RETENTION_DAYS: z.coerce.number().int().min(1).default(30),
};

export interface ProcessDeps<Config> {
  config: Config;
  db: Db;
  bus: EventBus;
  logger: Logger;
  /** The registry /metrics serves; the module adds its own measures to it. */
  metrics: Metrics;
}

export interface StatelessProcessDeps<Config> {
  config: Config;
  logger: Logger;
  /** Whether the process is stopping (the gateway's own /readyz turns 503 then). */
  isShuttingDown(): boolean;
}

/**
 * The cluster-mode process entry shared by the services: validated configuration,
 * telemetry, real PostgreSQL and JetStream, the service module, and one shutdown path on
 * SIGTERM/SIGINT.
 */
export async function runServiceProcess<Shape extends typeof serviceProcessEnv>(
  name: string,
  shape: Shape,
  makeModule: (deps: ProcessDeps<z.infer<z.ZodObject<Shape>>>) => ServiceModule | Promise<ServiceModule>,
): Promise<void> {
  await hostProcess(name, shape, async ({ config, logger, shutdown, metrics }) => {
    const host = loadConfig(z.object(serviceProcessEnv));
    const db = await openDatabase(host.DATABASE_URL, `mimamori-${name}`);
    shutdown.register('database', () => db.close());
    const jetStream = await createJetStreamBus({ servers: host.NATS_URL, name: `mimamori-${name}` });
    const bus = host.BUS_NAMESPACE
      ? namespacedBus(jetStream, host.BUS_NAMESPACE, { keepStreams: true })
      : jetStream;
    shutdown.register('bus', () => bus.close());
    return {
      module: await makeModule({ config, db, bus, logger, metrics }),
      connections: { db, bus, retention: { keepMs: host.RETENTION_DAYS * 86_400_000 } },
    };
  });
}

/**
 * The same process entry for a service that keeps no rows and takes no events (the gateway):
 * the same configuration check, telemetry, logs, ops endpoints and shutdown, with no database
 * or bus connection to open or to wait for.
 */
export async function runStatelessProcess<Shape extends typeof runtimeEnv>(
  name: string,
  shape: Shape,
  makeModule: (
    deps: StatelessProcessDeps<z.infer<z.ZodObject<Shape>>>,
  ) => ServiceModule | Promise<ServiceModule>,
): Promise<void> {
  await hostProcess(name, shape, async ({ config, logger, shutdown }) => ({
    module: await makeModule({ config, logger, isShuttingDown: shutdown.isShuttingDown }),
    connections: {},
  }));
}

async function hostProcess<Shape extends typeof runtimeEnv>(
  name: string,
  shape: Shape,
  open: (host: {
    config: z.infer<z.ZodObject<Shape>>;
    logger: Logger;
    shutdown: Shutdown;
    metrics: Metrics;
  }) => Promise<{
    module: ServiceModule;
    connections: Pick<ServiceHostDeps, 'db' | 'bus' | 'retention'>;
  }>,
): Promise<void> {
  // The service's whole configuration for its module; the shared part, typed, for the host.
  const config = loadConfig(z.object(shape));
  const host = loadConfig(z.object(runtimeEnv));
  const telemetry = startTelemetry({
    serviceName: `mimamori-${name}`,
    otlpEndpoint: host.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
  const logger = createLogger({ service: name, level: host.LOG_LEVEL });
  const shutdown = createShutdown({ logger, timeoutMs: host.SHUTDOWN_TIMEOUT_MS });
  shutdown.listen();
  shutdown.register('telemetry', () => telemetry.shutdown());
  try {
    const metrics = createMetrics({ service: name });
    const { module, connections } = await open({ config, logger, shutdown, metrics });
    await runService(module, {
      ...connections,
      logger,
      shutdown,
      metrics,
      grpc: { host: host.GRPC_HOST, port: host.GRPC_PORT },
      ops: { host: host.GRPC_HOST, port: host.OPS_PORT },
      timeScale: host.MIMAMORI_TIME_SCALE,
    });
  } catch (error) {
    logger.fatal({ err: error }, 'service failed to start');
    await shutdown.run('start failure');
    process.exit(1);
  }
}
