import type { Db } from '@mimamori/db';
import { NOTIFIER_SCHEMA } from './migrations.ts';

const S = NOTIFIER_SCHEMA;

/** An update held inside quiet hours (docs/product.md#quiet-hours), as the digest reads it. */
export interface HeldUpdate {
  updateId: string;
  targetId: string;
  heldAt: Date;
  releaseAt: Date;
  /** The update event as it came (updates.detected, encoded). */
  event: Uint8Array;
}

/** One digest to send: the held updates of one user tagged together when their quiet hours ended. */
export interface DigestBatch {
  /** `<user id>:<release time>:<first held row>`: names the digest's deliveries. */
  id: string;
  userId: string;
  releaseAt: Date;
  /** How many release passes tried it before this one. */
  attempts: number;
  updates: HeldUpdate[];
}

/**
 * Whether an update is held already, or some channel began to tell it (one of `deliveryIds`, the
 * update's deliveries on every channel it may have; a redelivered event): then it is not held
 * again, so nothing is told twice.
 */
export async function updateHeldOrStarted(
  db: Db,
  updateId: string,
  deliveryIds: readonly string[],
): Promise<'held' | 'started' | 'none'> {
  const { rows } = await db.query<{ held: boolean; started: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM ${S}.held_updates WHERE update_id = $1) AS held,
            EXISTS (SELECT 1 FROM ${S}.deliveries WHERE id = ANY($2::text[])) AS started`,
    [updateId, deliveryIds],
  );
  const row = rows[0];
  return row?.held ? 'held' : row?.started ? 'started' : 'none';
}

/** Keeps an update for the digest; a redelivered event holds it once. */
export async function holdUpdate(
  db: Db,
  held: {
    updateId: string;
    userId: string;
    targetId: string;
    heldAt: Date;
    releaseAt: Date;
    event: Uint8Array;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO ${S}.held_updates (update_id, user_id, target_id, held_at, release_at, event)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (update_id) DO NOTHING`,
    [held.updateId, held.userId, held.targetId, held.heldAt, held.releaseAt, Buffer.from(held.event)],
  );
}

/**
 * Tags every due update not yet in a digest with its digest (one per user and release time) and
 * answers all digests not finished, new and left over from a pass that stopped (a crash, a channel
 * to try again). A row held after the tagging stays untagged for the next pass.
 */
export async function dueDigests(db: Db, now: Date): Promise<DigestBatch[]> {
  await db.query(
    `UPDATE ${S}.held_updates AS held SET batch = due.batch
       FROM (SELECT user_id, release_at,
                    user_id || ':' || to_char(release_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
                      || ':' || min(seq) AS batch
               FROM ${S}.held_updates
              WHERE batch IS NULL AND release_at <= $1
              GROUP BY user_id, release_at) AS due
      WHERE held.batch IS NULL AND held.user_id = due.user_id AND held.release_at = due.release_at`,
    [now],
  );
  const { rows } = await db.query<{
    batch: string;
    user_id: string;
    update_id: string;
    target_id: string;
    held_at: Date;
    release_at: Date;
    event: Buffer;
    attempts: number;
  }>(
    `SELECT batch, user_id, update_id, target_id, held_at, release_at, event, attempts
       FROM ${S}.held_updates WHERE batch IS NOT NULL ORDER BY batch, held_at, seq`,
  );
  const batches = new Map<string, DigestBatch>();
  for (const row of rows) {
    let batch = batches.get(row.batch);
    if (!batch) {
      batch = { id: row.batch, userId: row.user_id, releaseAt: row.release_at, attempts: 0, updates: [] };
      batches.set(row.batch, batch);
    }
    batch.attempts = Math.max(batch.attempts, row.attempts);
    batch.updates.push({
      updateId: row.update_id,
      targetId: row.target_id,
      heldAt: row.held_at,
      releaseAt: row.release_at,
      event: new Uint8Array(row.event),
    });
  }
  return [...batches.values()];
}

/** A pass that left some channel to try again. */
export async function countDigestAttempt(db: Db, batch: string): Promise<void> {
  await db.query(`UPDATE ${S}.held_updates SET attempts = attempts + 1 WHERE batch = $1`, [batch]);
}

/** Every channel of the digest is done: its updates are no longer held. */
export async function removeDigest(db: Db, batch: string): Promise<void> {
  await db.query(`DELETE FROM ${S}.held_updates WHERE batch = $1`, [batch]);
}
