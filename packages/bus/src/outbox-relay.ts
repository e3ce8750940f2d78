import type { Db } from '@mimamori/db';
import type { EventBus } from './event-bus.ts';

export interface OutboxRelayLogger {
  error(details: object, message: string): void;
}

export interface OutboxRelayOptions {
  db: Db;
  schema: string;
  bus: EventBus;
  logger?: OutboxRelayLogger;
  /** How often to look for unpublished rows when nobody kicks the relay. */
  pollMs?: number;
  /** Rows published per transaction. */
  batchSize?: number;
  /** Published rows older than this are deleted (7 days by default). */
  keepPublishedMs?: number;
}

export interface OutboxRelay {
  start(): void;
  /** Publish now (right after a commit) instead of at the next poll. */
  kick(): void;
  /** Stops polling, waits for the batch being published, then publishes what is left. */
  stop(): Promise<void>;
}

interface OutboxRow {
  id: string;
  subject: string;
  payload: Uint8Array;
  headers: Record<string, string>;
}

const pruneEveryMs = 60_000;

/**
 * Publishes committed outbox rows in order, each with its row id as the message id. Rows
 * are claimed with FOR UPDATE SKIP LOCKED, so replicas each publish different rows; a
 * relay that dies after publishing but before marking leaves the rows to be published
 * again under the same id, which the stream's duplicate window drops.
 */
export function createOutboxRelay({
  db,
  schema,
  bus,
  logger,
  pollMs = 250,
  batchSize = 100,
  keepPublishedMs = 7 * 24 * 3_600_000,
}: OutboxRelayOptions): OutboxRelay {
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let cycle: Promise<void> | undefined;
  let again = false;
  let prunedAt = 0;

  /** Publishes one batch; returns how many rows it claimed. */
  const publishBatch = async () => {
    let failure: unknown;
    const claimed = await db.transaction(async (tx) => {
      const { rows } = await tx.query<OutboxRow>(
        `SELECT id, subject, payload, headers FROM ${schema}.outbox
          WHERE published_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batchSize],
      );
      const published: string[] = [];
      for (const row of rows) {
        try {
          await bus.publish(row.subject, new Uint8Array(row.payload), {
            msgId: row.id,
            headers: row.headers,
          });
        } catch (error) {
          failure = error;
          break;
        }
        published.push(row.id);
      }
      // Marks what went out even when a later row failed, so it is not sent again; the
      // failed row and those after it stay for the next attempt, in order.
      if (published.length > 0) {
        await tx.query(`UPDATE ${schema}.outbox SET published_at = now() WHERE id = ANY($1)`, [published]);
      }
      return rows.length;
    });
    if (failure) throw failure;
    return claimed;
  };

  const publishAll = async () => {
    let full = true;
    while (full) full = (await publishBatch()) === batchSize;
  };

  const prune = async () => {
    if (Date.now() - prunedAt < pruneEveryMs) return;
    prunedAt = Date.now();
    await db.query(`DELETE FROM ${schema}.outbox WHERE published_at < now() - make_interval(secs => $1)`, [
      keepPublishedMs / 1000,
    ]);
  };

  const runCycle = async () => {
    try {
      do {
        again = false;
        await publishAll();
      } while (running && again);
      await prune();
    } catch (error) {
      logger?.error({ err: error, schema }, 'outbox relay failed; retrying at the next poll');
    }
  };

  const schedule = (delayMs: number) => {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(tick, delayMs);
  };

  function tick() {
    if (!running) return;
    if (cycle) {
      again = true;
      return;
    }
    clearTimeout(timer);
    cycle = runCycle().finally(() => {
      cycle = undefined;
      schedule(pollMs);
    });
  }

  return {
    start() {
      if (running) return;
      running = true;
      tick();
    },
    kick() {
      if (running) tick();
    },
    async stop() {
      if (!running) return;
      running = false;
      clearTimeout(timer);
      await cycle;
      await publishAll().catch((error: unknown) =>
        logger?.error({ err: error, schema }, 'outbox relay could not publish everything before stopping'),
      );
    },
  };
}
