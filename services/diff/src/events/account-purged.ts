import type { BlobStore } from '@mimamori/blob-store';
import { type CatalogEntry, eraseEventTraces, idempotent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { accountPurged, streams } from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import { DIFF_SCHEMA } from '../store/migrations.ts';
import { forgetTarget } from '../store/result-store.ts';
import { deleteBlobs } from './blobs.ts';

const S = DIFF_SCHEMA;

/**
 * A deleted account's grace period is over (accounts.purged): every site of the user, those deleted
 * before included, is forgotten with its pictures, and the tombstones and event records that still
 * name a site or the user go too.
 */
export function accountPurgedEntry(db: Db, deps: { blobs: BlobStore; logger: Logger }): CatalogEntry {
  const durable = 'diff-account-purged';
  return {
    stream: streams.accounts.name,
    durable,
    subject: accountPurged.subject,
    maxDeliver: 10,
    ackWaitMs: 60_000,
    handler: async (message) => {
      let keys: string[] = [];
      await idempotent(db, S, durable, async (_message, tx) => {
        const { userId, targetIds } = accountPurged.decode(message.data);
        const { rows } = await tx.query<{ target_id: string }>(
          `SELECT target_id FROM ${S}.check_results WHERE user_id = $1
           UNION SELECT target_id FROM ${S}.updates WHERE user_id = $1
           UNION SELECT target_id FROM ${S}.area_versions WHERE user_id = $1
           UNION SELECT target_id FROM ${S}.history_limits WHERE user_id = $1`,
          [userId],
        );
        const ids = [...new Set([...targetIds, ...rows.map((row) => row.target_id)])];
        for (const id of ids) {
          await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [id]);
          keys.push(...(await forgetTarget(tx, id)));
        }
        await tx.query(`DELETE FROM ${S}.forgotten_targets WHERE target_id = ANY($1::text[])`, [ids]);
        await eraseEventTraces(tx, S, [userId, ...ids]);
        keys = [...new Set(keys)];
      })(message);
      await deleteBlobs(deps.blobs, deps.logger, keys);
    },
  };
}
