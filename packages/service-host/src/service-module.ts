import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import type { CatalogEntry, StreamSpec } from '@mimamori/bus';
import type { Migration } from '@mimamori/db';

/**
 * What one service is, independent of how it runs: its schema and migrations, the gRPC
 * services it serves, the events it consumes and the streams it publishes to. The same
 * module runs as its own process (cluster) or beside the others in one process.
 */
export interface ServiceModule {
  name: string;
  /** The service's own PostgreSQL schema; none for a service that keeps no rows (the gateway). */
  schema?: string;
  migrations?: readonly Migration[];
  /** Streams this service publishes to or consumes from; declared at start (idempotent). */
  streams?: readonly StreamSpec[];
  grpc?: readonly GrpcServiceBinding[];
  /** The browser-facing HTTP server (the gateway's API and SPA); started after everything else. */
  http?: HttpFront;
  /** The service's subject catalog; checked at start, one handler per subject. */
  consumers?: readonly CatalogEntry[];
  /** Whether the service writes events through its outbox (a relay then runs for it). */
  outbox?: boolean;
  /** Extra readiness checks beyond the database and the bus. */
  readiness?: () => Promise<Record<string, boolean>>;
  /**
   * Deletes the service's own rows older than the retention (`keepMs`); run periodically beside
   * the pruning of processed_events.
   */
  sweep?: (keepMs: number) => Promise<unknown>;
  /**
   * Work the service does on its own every so often (the notifier's digests), started once the
   * migrations ran; the period shrinks with MIMAMORI_TIME_SCALE. A run still going skips the next.
   */
  timers?: readonly ServiceTimer[];
  /** Called after everything else stopped taking work, before connections close. */
  stop?: () => Promise<void>;
}

export interface ServiceTimer {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
}

export interface HttpFront {
  /** Starts serving; resolves with the URL the server is reached at. */
  listen(): Promise<string>;
  /** Stops taking requests and lets those in flight finish. */
  close(): Promise<void>;
}

export interface GrpcServiceBinding {
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}
