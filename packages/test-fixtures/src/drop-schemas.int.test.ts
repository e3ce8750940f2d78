import { openPostgres } from '@mimamori/db';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchemas } from './drop-schemas.ts';
import { testDatabaseUrl } from './server-urls.ts';
import { uniqueName } from './unique-name.ts';

const db = openPostgres(testDatabaseUrl());
afterAll(() => db.close());

async function schemaExists(name: string) {
  const { rows } = await db.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [name]);
  return rows.length === 1;
}

describe('dropSchemas', () => {
  it('drops the named schemas with their tables, and tolerates one already gone', async () => {
    const [first, second] = [uniqueName('fixture'), uniqueName('fixture')];
    await db.exec(`CREATE SCHEMA ${first}; CREATE TABLE ${first}.t (id int); CREATE SCHEMA ${second};`);

    await dropSchemas(db, [first, second, uniqueName('never_made')]);

    expect(await schemaExists(first)).toBe(false);
    expect(await schemaExists(second)).toBe(false);
  });

  it('refuses a name that is not a plain identifier', async () => {
    await expect(dropSchemas(db, ['public; DROP SCHEMA x'])).rejects.toThrow(/not a plain schema name/);
  });
});
