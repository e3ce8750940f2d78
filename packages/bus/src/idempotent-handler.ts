import type { Db, Migration, Sql } from '@mimamori/db';
import type { BusMessage, MessageHandler } from './event-bus.ts';

/** After the outbox's (1,000,001); see outboxMigrationVersion. */
export const processedEventsMigrationVersion = 1_000_002;

/** The events each consumer of the service has already applied, by event id. */
export function processedEventsMigration(schema: string): Migration {
  return {
    version: processedEventsMigrationVersion,
    name: 'processed_events',
    sql: `
      CREATE TABLE ${schema}.processed_events (
        consumer text NOT NULL,
        event_id text NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, event_id)
      );
    `,
  };
}

/**
 * Forgets the events `schema`'s consumers applied longer ago than `keepMs`: far past JetStream's
 * duplicate window and an event's last redelivery, no copy of them can still arrive (a dead
 * letter redriven by hand after that would be applied again). Nothing when the service keeps no
 * such record.
 */
export async function pruneProcessedEvents(db: Db, schema: string, keepMs: number): Promise<number> {
  const { rows } = await db.query<{ present: boolean }>(`SELECT to_regclass($1) IS NOT NULL AS present`, [
    `${schema}.processed_events`,
  ]);
  if (!rows[0]?.present) return 0;
  const { rowCount } = await db.query(
    `DELETE FROM ${schema}.processed_events WHERE processed_at < now() - make_interval(secs => $1)`,
    [keepMs / 1000],
  );
  return rowCount;
}

/** Thrown inside the transaction to roll back a handler's work when it nak'd or termed. */
class Unsettled extends Error {}

/**
 * Makes a handler safe to deliver twice: its database work and the record that
 * `consumer` processed the event commit together, and an event already recorded is acked
 * without running the handler. A second delivery racing the first waits on the row lock
 * of the record, then sees it. A handler that naks or terms has its work rolled back.
 */
export function idempotent(
  db: Db,
  schema: string,
  consumer: string,
  handler: (message: BusMessage, tx: Sql) => Promise<void>,
): MessageHandler {
  return async (message) => {
    let handedBack = false;
    const watched: BusMessage = {
      ...message,
      nak(delayMs) {
        handedBack = true;
        message.nak(delayMs);
      },
      term(reason) {
        handedBack = true;
        message.term(reason);
      },
    };
    try {
      await db.transaction(async (tx) => {
        const { rowCount } = await tx.query(
          `INSERT INTO ${schema}.processed_events (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
          [consumer, message.msgId],
        );
        if (rowCount === 0) return;
        await handler(watched, tx);
        if (handedBack) throw new Unsettled();
      });
    } catch (error) {
      if (!(error instanceof Unsettled)) throw error;
    }
  };
}
