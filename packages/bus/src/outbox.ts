import { randomUUID } from 'node:crypto';
import type { Migration, Sql } from '@mimamori/db';
import { currentTraceHeaders } from './message-tracing.ts';

/** The bus's migrations take versions from 1,000,000 up so they never meet a service's own. */
export const outboxMigrationVersion = 1_000_001;

/**
 * The outbox table: events written in the same transaction as the state they describe,
 * published later by the relay with the row id as the message id. `seq` keeps the order
 * of writing (rows of one transaction share `created_at`).
 */
export function outboxMigration(schema: string): Migration {
  return {
    version: outboxMigrationVersion,
    name: 'outbox',
    sql: `
      CREATE TABLE ${schema}.outbox (
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id text PRIMARY KEY,
        subject text NOT NULL,
        payload bytea NOT NULL,
        headers jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        published_at timestamptz
      );
      CREATE INDEX outbox_unpublished ON ${schema}.outbox (seq) WHERE published_at IS NULL;
    `,
  };
}

export interface OutboxEvent {
  /**
   * The event id, and so the message id. Derive it from what the event is about
   * (`account-created:<user id>`) so a retried write is the same event; random otherwise.
   */
  id?: string;
  subject: string;
  data: Uint8Array;
  headers?: Record<string, string>;
}

/**
 * Records an event in the caller's transaction; it is published only if that transaction
 * commits. The active trace context goes with it, so the consumer's span joins the trace
 * of the request that caused the event. Returns the event id.
 */
export async function writeEvent(tx: Sql, schema: string, event: OutboxEvent): Promise<string> {
  const id = event.id ?? randomUUID();
  await tx.query(`INSERT INTO ${schema}.outbox (id, subject, payload, headers) VALUES ($1, $2, $3, $4)`, [
    id,
    event.subject,
    event.data,
    JSON.stringify({ ...currentTraceHeaders(), ...event.headers }),
  ]);
  return id;
}
