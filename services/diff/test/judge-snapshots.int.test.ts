import { randomUUID } from 'node:crypto';
import { changesEventsV1 } from '@mimamori/contracts';
import { snapshotCaptured } from '@mimamori/events';
import { unary } from '@mimamori/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DiffHarness, startDiffHarness } from './diff-harness.ts';

let harness: DiffHarness;

beforeAll(async () => {
  harness = await startDiffHarness();
});

afterAll(async () => {
  await harness?.close();
});

const area = (areaId: string, text: string) => ({
  areaId,
  found: true,
  html: `<p>${text}</p>`,
  text,
  htmlBlobKey: '',
  textBlobKey: '',
  screenshotBlobKey: '',
});

/** Publishes one check of the site and waits for the diff service's verdict. */
async function check(
  userId: string,
  targetId: string,
  areas: ReturnType<typeof area>[],
  extra: { error?: { code: string; detail: string; retryable: boolean } } = {},
) {
  const checkId = `${targetId}:${randomUUID()}`;
  await harness.publishSnapshot({ checkId, targetId, userId, areas, ...extra });
  return { checkId, ...(await harness.resultOf(checkId)) };
}

async function completedFor(checkId: string) {
  const rows = await harness.events('checks.completed');
  return rows
    .filter((row) => row.id === `checked:${checkId}`)
    .map((row) => changesEventsV1.CheckCompleted.decode(row.payload));
}

describe('judging snapshots', () => {
  const userId = `user-${randomUUID()}`;
  let targetId: string;

  beforeAll(async () => {
    targetId = await harness.registerSite(userId, [{ areaId: 'price' }], {
      rules: {
        combine: 'or',
        groups: [
          {
            combine: 'and',
            conditions: [{ areaId: 'price', operand: 'new', operator: 'keyword', value: 'sale' }],
          },
        ],
      },
    });
  });

  it('records the first snapshot as the data at registration, without an update', async () => {
    const first = await check(userId, targetId, [area('price', 'Price 1000 yen')]);
    expect(first.outcome).toBe('no_change');
    expect((await harness.changes()).filter((change) => change.targetId === targetId)).toEqual([]);
    const [completed] = await completedFor(first.checkId);
    expect(completed).toMatchObject({ checkId: first.checkId, targetId, userId, outcome: 'no_change' });

    const registered = await unary(harness.history, 'getRegistrationData', { userId, targetId });
    expect(registered.areas.map((entry) => [entry.areaId, entry.text])).toEqual([
      ['price', 'Price 1000 yen'],
    ]);
  });

  it('finds an update with the diff a person sees, notifying only when the rules match', async () => {
    const quiet = await check(userId, targetId, [area('price', 'Price 900 yen')]);
    expect(quiet.outcome).toBe('update');
    const loud = await check(userId, targetId, [area('price', 'Price 900 yen sale')]);
    expect(loud.outcome).toBe('update');

    const changes = (await harness.changes()).filter((change) => change.targetId === targetId);
    expect(changes.map((change) => [change.checkId, change.notify])).toEqual([
      [quiet.checkId, false],
      [loud.checkId, true],
    ]);
    const [first, second] = changes;
    expect(first?.areas).toEqual([
      {
        areaId: 'price',
        diffText: '- Price 1000 yen\n+ Price 900 yen',
        added: ['Price 900 yen'],
        removed: ['Price 1000 yen'],
      },
    ]);
    expect(first?.updateId).toBe(quiet.update_id);
    // Against the first update's version, not the registration's (which would show 1000 removed);
    // only the added word is highlighted, so the old line is no '- ' line.
    expect(second?.areas[0]).toMatchObject({
      diffText: '+ Price 900 yen sale',
      added: ['Price 900 yen sale'],
    });
    expect(second?.matched).toEqual([
      {
        groupIndex: 0,
        conditionIndex: 0,
        areaId: 'price',
        operand: 'new',
        operator: 'keyword',
        value: 'sale',
      },
    ]);
    const [completed] = await completedFor(loud.checkId);
    expect(completed).toMatchObject({ outcome: 'update', updateId: loud.update_id });
  });

  it('answers no_change when only whitespace differs from the last update', async () => {
    const same = await check(userId, targetId, [area('price', '  Price   900 yen sale ')]);
    expect(same.outcome).toBe('no_change');
    expect(same.update_id).toBeNull();
  });

  it('records a failed check as an error with its code and keeps the versions as they were', async () => {
    const failed = await check(userId, targetId, [], {
      error: { code: 'timeout', detail: 'the page did not load in 30 s', retryable: true },
    });
    expect(failed).toMatchObject({ outcome: 'error', error_code: 'timeout' });
    const [completed] = await completedFor(failed.checkId);
    expect(completed).toMatchObject({
      outcome: 'error',
      errorCode: 'timeout',
      errorDetail: 'the page did not load in 30 s',
    });
    // Still compared with the last update: the same content is no change.
    expect((await check(userId, targetId, [area('price', 'Price 900 yen sale')])).outcome).toBe('no_change');
  });

  it("reports a missing element as the product's element_not_found", async () => {
    const missing = await check(userId, targetId, [{ ...area('price', ''), found: false }]);
    expect(missing).toMatchObject({ outcome: 'error', error_code: 'element_not_found' });
  });

  it('judges a snapshot delivered twice once: one result, one update, one changes.detected', async () => {
    const checkId = `${targetId}:${randomUUID()}`;
    const snapshot = { checkId, targetId, userId, areas: [area('price', 'Price 800 yen')] };
    await harness.publishSnapshot(snapshot);
    // The crawler's redelivery after the stream's duplicate window: a second message for the same check.
    await harness.bus.publish(
      snapshotCaptured.subject,
      snapshotCaptured.encode({
        eventId: checkId,
        dueAt: new Date(),
        capturedAt: new Date(),
        fetchMode: 'http',
        finalUrl: '',
        httpStatus: 200,
        pageScreenshotBlobKey: '',
        sealedSessionState: '',
        ...snapshot,
      }),
      { msgId: `${checkId}:again` },
    );
    await harness.resultOf(checkId);
    await waitFor(async () => {
      const { rowCount } = await harness.db.query('SELECT 1 FROM diff.processed_events WHERE event_id = $1', [
        `${checkId}:again`,
      ]);
      return rowCount > 0;
    });
    const { rows } = await harness.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM diff.check_results WHERE check_id = $1',
      [checkId],
    );
    expect(rows[0]?.n).toBe(1);
    expect((await harness.changes()).filter((change) => change.checkId === checkId)).toHaveLength(1);
    expect(await completedFor(checkId)).toHaveLength(1);
    const updates = await harness.db.query('SELECT 1 FROM diff.updates WHERE check_id = $1', [checkId]);
    expect(updates.rowCount).toBe(1);
  });
});

describe('area options', () => {
  it('records no update when only excluded text changed', async () => {
    const userId = `user-${randomUUID()}`;
    const targetId = await harness.registerSite(userId, [
      { areaId: 'stock', options: { excludeNumbers: true } },
    ]);
    expect((await check(userId, targetId, [area('stock', 'Stock: 5 left')])).outcome).toBe('no_change');
    const numbersOnly = await check(userId, targetId, [area('stock', 'Stock: 7 left')]);
    expect(numbersOnly.outcome).toBe('no_change');
    expect((await harness.changes()).filter((change) => change.targetId === targetId)).toEqual([]);
    // A change the options do count still is one.
    expect((await check(userId, targetId, [area('stock', 'Sold out')])).outcome).toBe('update');
  });
});

describe('settings changes', () => {
  it('reads the options again once targets.updated announced a newer revision', async () => {
    const userId = `user-${randomUUID()}`;
    const targetId = await harness.registerSite(userId, [{ areaId: 'stock' }]);
    expect((await check(userId, targetId, [area('stock', 'Stock: 5 left')])).outcome).toBe('no_change');
    const freshness = async () => {
      const { rows } = await harness.db.query<{ announced: string; read: string }>(
        'SELECT announced_revision AS announced, read_revision AS read FROM diff.target_settings WHERE target_id = $1',
        [targetId],
      );
      return { announced: Number(rows[0]?.announced), read: Number(rows[0]?.read) };
    };
    // What was read at the first check is the registered revision: its announcement changes nothing.
    await waitFor(async () => (await freshness()).announced > 0);
    expect((await freshness()).read).toBe((await freshness()).announced);
    await harness.updateSite(userId, targetId, [{ areaId: 'stock', options: { excludeNumbers: true } }]);
    await waitFor(async () => {
      const { announced, read } = await freshness();
      return announced > read;
    });
    // With the options read at registration this would be an update.
    expect((await check(userId, targetId, [area('stock', 'Stock: 7 left')])).outcome).toBe('no_change');
  });
});

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition never held');
}
