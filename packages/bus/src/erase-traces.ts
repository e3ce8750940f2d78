import type { Sql } from '@mimamori/db';

/**
 * Erases a service's own records of events that name any of `ids` (a purged user's id and site
 * ids): outbox rows whose id or payload holds one, and consumed-event records whose id does. Event
 * ids and payloads carry those ids as text (protobuf strings), so a byte search finds them. Run in
 * the purge's transaction; a schema without an outbox or consumer records is skipped.
 */
export async function eraseEventTraces(tx: Sql, schema: string, ids: readonly string[]): Promise<void> {
  const needles = ids.filter((id) => id !== '');
  if (needles.length === 0) return;
  const { rows } = await tx.query<{ outbox: boolean; processed: boolean }>(
    `SELECT to_regclass($1) IS NOT NULL AS outbox, to_regclass($2) IS NOT NULL AS processed`,
    [`${schema}.outbox`, `${schema}.processed_events`],
  );
  if (rows[0]?.outbox)
    await tx.query(
      `DELETE FROM ${schema}.outbox o
        WHERE EXISTS (SELECT 1 FROM unnest($1::text[]) AS n(id)
                       WHERE position(n.id in o.id) > 0
                          OR position(convert_to(n.id, 'UTF8') in o.payload) > 0)`,
      [needles],
    );
  if (rows[0]?.processed)
    await tx.query(
      `DELETE FROM ${schema}.processed_events p
        WHERE EXISTS (SELECT 1 FROM unnest($1::text[]) AS n(id) WHERE position(n.id in p.event_id) > 0)`,
      [needles],
    );
}
