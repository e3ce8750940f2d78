import type { BlobStore } from '@mimamori/blob-store';
import { type CatalogEntry, idempotent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import {
  snapshotCaptured,
  streams,
  targetDeleted,
  targetPaused,
  targetRegistered,
  targetResumed,
  targetUpdated,
} from '@mimamori/events';
import type { Logger } from '@mimamori/runtime';
import { type RecordCheckDeps, recordCheck } from '../domain/record-check.ts';
import { DIFF_SCHEMA } from '../store/migrations.ts';
import { forgetTarget } from '../store/result-store.ts';
import { announceRevision, currentSettings } from '../store/settings-cache.ts';

/**
 * Snapshots are judged once per event id; targets.* changes make the cached settings stale; a
 * deleted site's versions, results, updates and blobs go. Blobs are deleted only after the
 * transaction that stopped referring to them committed.
 */
export function diffConsumers(db: Db, deps: RecordCheckDeps & { concurrency: number }): CatalogEntry[] {
  const afterCommit = (blobs: BlobStore, logger: Logger, keys: readonly string[]) =>
    Promise.all(
      keys.map((key) =>
        blobs.delete(key).catch((error: unknown) => logger.warn({ err: error, key }, 'blob not deleted')),
      ),
    );
  const snapshotHandler = (consumer: string): CatalogEntry['handler'] => {
    return async (message) => {
      const snapshot = snapshotCaptured.decode(message.data);
      // The settings are read from the target service before the transaction opens: in the
      // single-process mode both services share one embedded database that runs one transaction
      // at a time, so a read from inside it would wait on itself until the call's deadline. The
      // read is kept for this message, so the transaction never asks again.
      let read: ReturnType<RecordCheckDeps['settings']['read']> | undefined;
      const settings: RecordCheckDeps['settings'] = {
        read: (userId, targetId) => {
          read ??= deps.settings.read(userId, targetId);
          return read;
        },
      };
      await currentSettings(db, settings, snapshot.targetId, snapshot.userId);
      let unused: string[] = [];
      await idempotent(db, DIFF_SCHEMA, consumer, async (_message, tx) => {
        unused = await recordCheck(tx, snapshot, { ...deps, settings });
      })(message);
      await afterCommit(deps.blobs, deps.logger, unused);
    };
  };
  const stateChanges = [targetRegistered, targetUpdated, targetPaused, targetResumed].map(
    (type): CatalogEntry => {
      const consumer = `diff-${type.subject.replace('.', '-')}`;
      return {
        stream: streams.targets.name,
        durable: consumer,
        subject: type.subject,
        maxDeliver: 10,
        ackWaitMs: 30_000,
        handler: idempotent(db, DIFF_SCHEMA, consumer, async (message, tx) => {
          const event = type.decode(message.data);
          await announceRevision(tx, event.targetId, event.userId, Number(event.revision));
        }),
      };
    },
  );
  return [
    {
      stream: streams.snapshots.name,
      durable: 'diff-snapshots-captured',
      subject: snapshotCaptured.subject,
      maxDeliver: 10,
      ackWaitMs: 60_000,
      concurrency: deps.concurrency,
      handler: snapshotHandler('diff-snapshots-captured'),
    },
    ...stateChanges,
    {
      stream: streams.targets.name,
      durable: 'diff-targets-deleted',
      subject: targetDeleted.subject,
      maxDeliver: 10,
      ackWaitMs: 30_000,
      handler: async (message) => {
        let keys: string[] = [];
        await idempotent(db, DIFF_SCHEMA, 'diff-targets-deleted', async (_message, tx) => {
          const { targetId } = targetDeleted.decode(message.data);
          // Waits for a check of the site being judged right now, so nothing is recorded after this.
          await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [targetId]);
          keys = await forgetTarget(tx, targetId);
        })(message);
        await afterCommit(deps.blobs, deps.logger, keys);
      },
    },
  ];
}
