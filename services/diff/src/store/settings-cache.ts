import type { Sql } from '@mimamori/db';
import type { WatchSettings, WatchSettingsSource } from '../domain/watch-settings.ts';

/** Notes the newest revision targets.* announced for a site; older announcements change nothing. */
export async function announceRevision(
  tx: Sql,
  targetId: string,
  userId: string,
  revision: number,
): Promise<void> {
  await tx.query(
    `INSERT INTO diff.target_settings (target_id, user_id, announced_revision) VALUES ($1, $2, $3)
     ON CONFLICT (target_id) DO UPDATE
       SET announced_revision = GREATEST(diff.target_settings.announced_revision, EXCLUDED.announced_revision)`,
    [targetId, userId, revision],
  );
}

/**
 * The site's watch settings: the cached ones while targets.* announced no revision newer than the
 * one they were read at, otherwise read again from the source. Null when the site is gone.
 */
export async function currentSettings(
  tx: Sql,
  source: WatchSettingsSource,
  targetId: string,
  userId: string,
): Promise<WatchSettings | null> {
  const { rows } = await tx.query<{
    user_id: string;
    announced_revision: string;
    read_revision: string | null;
    settings: WatchSettings | null;
  }>(
    'SELECT user_id, announced_revision, read_revision, settings FROM diff.target_settings WHERE target_id = $1',
    [targetId],
  );
  const cached = rows[0];
  if (
    cached?.settings &&
    cached.user_id === userId &&
    cached.read_revision !== null &&
    Number(cached.read_revision) >= Number(cached.announced_revision)
  ) {
    return cached.settings;
  }
  const read = await source.read(userId, targetId);
  if (!read) return null;
  await tx.query(
    `INSERT INTO diff.target_settings (target_id, user_id, read_revision, settings) VALUES ($1, $2, $3, $4)
     ON CONFLICT (target_id) DO UPDATE SET read_revision = EXCLUDED.read_revision, settings = EXCLUDED.settings`,
    [targetId, userId, read.revision, JSON.stringify(read.settings)],
  );
  return read.settings;
}
