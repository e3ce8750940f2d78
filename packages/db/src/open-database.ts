import type { Db } from './db.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

/**
 * `postgres://…` opens a pool on a real server; `pglite:<folder>` an embedded database in that
 * folder; `pglite:memory` one that lives only as long as the process.
 */
export async function openDatabase(url: string, applicationName?: string): Promise<Db> {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    return openPostgres(url, applicationName ? { applicationName } : {});
  }
  if (url.startsWith('pglite:')) {
    const where = url.slice('pglite:'.length);
    return openPglite(where === 'memory' ? undefined : where);
  }
  throw new Error(
    `DATABASE_URL must start with postgres://, postgresql:// or pglite: (got ${url.split(':')[0]}:)`,
  );
}
