import type { Db } from './db.ts';

export interface Migration {
  /** Increasing version; never reuse or edit a version that has shipped. */
  version: number;
  name: string;
  sql: string;
}

/**
 * Applies a service's migrations to its own schema, each in a transaction, recording them in
 * `<schema>.schema_migrations`. An advisory lock keyed on the schema keeps two replicas
 * starting at once from applying the same migration twice.
 */
export async function migrate(db: Db, schema: string, migrations: readonly Migration[]): Promise<number[]> {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name: ${schema}`);
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  for (let i = 1; i < ordered.length; i++) {
    if (ordered[i]?.version === ordered[i - 1]?.version) {
      throw new Error(`duplicate migration version ${ordered[i]?.version} in schema ${schema}`);
    }
  }
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`migrate:${schema}`]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await tx.query<{ version: number }>(`SELECT version FROM ${schema}.schema_migrations`);
    const done = new Set(rows.map((row) => row.version));
    const applied: number[] = [];
    for (const migration of ordered) {
      if (done.has(migration.version)) continue;
      await tx.query(`SET LOCAL search_path TO ${schema}, public`);
      await tx.exec(migration.sql);
      await tx.query(`INSERT INTO ${schema}.schema_migrations (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    return applied;
  });
}
