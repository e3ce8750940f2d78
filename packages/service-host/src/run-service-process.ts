import { createJetStreamBus, type EventBus } from '@mimamori/bus';
import { type Db, openDatabase } from '@mimamori/db';
import { createLogger, createShutdown, type Logger, loadConfig, runtimeEnv, startTelemetry } from '@mimamori/runtime';
import { z } from 'zod';
import { runService } from './run-service.ts';
import type { ServiceModule } from './service-module.ts';

/** The variables every service process reads, on top of the runtime's own. */
export const serviceProcessEnv = {
  ...runtimeEnv,
  // PostgreSQL of record (postgres://…); the service uses only its own schema.
  DATABASE_URL: z.string().min(1),
  // NATS with JetStream carrying events and work queues.
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
};

export interface ProcessDeps<Config> {
  config: Config;
  db: Db;
  bus: EventBus;
  logger: Logger;
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
  const config = loadConfig(z.object(shape));
  const telemetry = startTelemetry({ serviceName: `mimamori-${name}`, otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
  const logger = createLogger({ service: name, level: config.LOG_LEVEL });
  const shutdown = createShutdown({ logger, timeoutMs: config.SHUTDOWN_TIMEOUT_MS });
  shutdown.listen();
  shutdown.register('telemetry', () => telemetry.shutdown());
  try {
    const db = await openDatabase(config.DATABASE_URL, `mimamori-${name}`);
    shutdown.register('database', () => db.close());
    const bus = await createJetStreamBus({ servers: config.NATS_URL, name: `mimamori-${name}` });
    shutdown.register('bus', () => bus.close());
    const module = await makeModule({ config, db, bus, logger });
    await runService(module, {
      db,
      bus,
      logger,
      shutdown,
      grpc: { host: config.GRPC_HOST, port: config.GRPC_PORT },
      ops: { host: config.GRPC_HOST, port: config.OPS_PORT },
    });
  } catch (error) {
    logger.fatal({ err: error }, 'service failed to start');
    await shutdown.run('start failure');
    process.exit(1);
  }
}
