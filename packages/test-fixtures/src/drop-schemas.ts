import type { Sql } from '@mimamori/db';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

/** Removes the schemas a test created, with everything in them. */
export async function dropSchemas(db: Sql, names: string[]): Promise<void> {
  for (const name of names) {
    // Schema names cannot be bound as parameters, so only plain identifiers are accepted.
    if (!SCHEMA_NAME.test(name)) throw new Error(`dropSchemas: not a plain schema name: ${name}`);
    await db.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  }
}
