import { createJetStreamBus } from '@mimamori/bus';
import { openPostgres } from '@mimamori/db';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OwnServer, startOwnNats, startOwnPostgres } from './own-servers.ts';

let nats: OwnServer;
let postgres: OwnServer;

beforeAll(async () => {
  [nats, postgres] = await Promise.all([startOwnNats(), startOwnPostgres()]);
}, 120_000);

afterAll(async () => {
  await Promise.all([nats?.close(), postgres?.close()]);
});

describe('servers of a test of its own', () => {
  it('NATS keeps its JetStream streams and messages across a restart on the same port', async () => {
    const before = await createJetStreamBus({ servers: nats.url });
    await before.declareStreams([{ name: 'kept', subjects: ['kept.>'] }]);
    const ack = await before.publish('kept.one', new TextEncoder().encode('hello'), { msgId: 'one' });
    await before.close();

    await nats.restart();

    const after = await createJetStreamBus({ servers: nats.url });
    expect(await after.hasStream('kept')).toBe(true);
    // The same message id within the duplicate window is recognised: the store came back.
    const again = await after.publish('kept.one', new TextEncoder().encode('hello'), { msgId: 'one' });
    expect(again).toMatchObject({ seq: ack.seq, duplicate: true });
    await after.close();
  });

  it('PostgreSQL keeps its data across a fast restart, and a halted server refuses connections', async () => {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    await client.query('CREATE TABLE kept (word text)');
    await client.query("INSERT INTO kept VALUES ('hello')");
    client.on('error', () => undefined);

    await postgres.restart();

    // The open connection was cut by the restart; a new one finds the row.
    await expect(client.query('SELECT 1')).rejects.toThrow();
    const fresh = new pg.Client({ connectionString: postgres.url });
    await fresh.connect();
    expect((await fresh.query('SELECT word FROM kept')).rows).toEqual([{ word: 'hello' }]);
    await fresh.end();

    await postgres.halt();
    const refused = new pg.Client({ connectionString: postgres.url });
    await expect(refused.connect()).rejects.toThrow();
    await postgres.start();
    const back = new pg.Client({ connectionString: postgres.url });
    await back.connect();
    expect((await back.query('SELECT count(*)::int AS n FROM kept')).rows).toEqual([{ n: 1 }]);
    await back.end();
  });

  it('a service pool outlives the restart: idle and checked-out connections cut without crashing, the next query reconnects', async () => {
    const db = openPostgres(postgres.url, { max: 4 });
    await db.query('CREATE TABLE IF NOT EXISTS tallies (n int)');
    await Promise.all([1, 2, 3].map(() => db.query('SELECT 1')));
    // A transaction waiting on its handler when the server goes: its next query fails, it rolls
    // back, and the connection is not handed out again.
    let resume: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => {
      resume = resolve;
    });
    const cut = db.transaction(async (tx) => {
      await tx.query('INSERT INTO tallies VALUES (1)');
      await waiting;
      await tx.query('INSERT INTO tallies VALUES (2)');
    });
    cut.catch(() => undefined);

    await postgres.restart();
    resume();
    await expect(cut).rejects.toThrow();
    // Until the pool has dropped every dead connection a query may still meet one; then it is back.
    let answered = false;
    for (let attempt = 0; attempt < 10 && !answered; attempt++) {
      answered = await db.query('SELECT count(*)::int AS n FROM tallies').then(
        ({ rows }) => rows[0]?.n === 0,
        () => false,
      );
    }
    expect(answered).toBe(true);
    await db.close();
  });
});
