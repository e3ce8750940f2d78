export type { Db, QueryResult, Sql } from './db.ts';
export { type Migration, migrate } from './migrate.ts';
export { openDatabase } from './open-database.ts';
export { openPglite } from './pglite.ts';
export { openPostgres } from './postgres.ts';
