import { randomUUID } from 'node:crypto';
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
  extra: { error?: { code: string; detail: string; retryable: boolean; areaId: string } } = {},
) {
  const checkId = `${targetId}:${randomUUID()}`;
  await harness.publishSnapshot({ checkId, targetId, userId, areas, ...extra });
  return { checkId, ...(await harness.resultOf(checkId)) };
}

const completedFor = (checkId: string) => harness.completedFor(checkId);

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
        summaryJa: '1000 yen → 900 yen（−10%）',
        summaryEn: '1000 yen → 900 yen (−10 %)',
      },
    ]);
    expect(first?.updateId).toBe(quiet.update_id);
    // Against the first update's version, not the registration's (which would show 1000 removed);
    // only the added word is highlighted, so the old line is no '- ' line.
    expect(second?.areas[0]).toMatchObject({
      diffText: '+ Price 900 yen sale',
      added: ['Price 900 yen sale'],
      summaryEn: 'Now shows “sale”',
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
      error: { code: 'timeout', detail: 'the page did not load in 30 s', retryable: true, areaId: '' },
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

  it('judges a snapshot delivered twice once: one result, one update, one updates.detected', async () => {
    const checkId = `${targetId}:${randomUUID()}`;
    const snapshot = {
      checkId,
      targetId,
      userId,
      areas: [area('price', 'Price 800 yen')],
      watch: harness.watchOf(targetId),
    };
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
        ...snapshot,
      }),
      { msgId: `${checkId}:again` },
    );
    await harness.resultOf(checkId);
    // Both copies taken, and every event they caused delivered.
    await harness.settled();
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

  it('an unchanged check writes its result row alone and publishes checks.completed once, also when delivered twice', async () => {
    const checkId = `${targetId}:${randomUUID()}`;
    const snapshot = { checkId, targetId, userId, areas: [area('price', 'Price 800 yen')] };
    await harness.publishSnapshot(snapshot);
    expect(await harness.resultOf(checkId)).toMatchObject({ outcome: 'no_change' });
    // The crawler's redelivery after the duplicate window: the event goes again, JetStream keeps one.
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
        watch: harness.watchOf(targetId),
        ...snapshot,
      }),
      { msgId: `${checkId}:again` },
    );
    await harness.settled();
    const [completed, ...more] = await completedFor(checkId);
    expect(completed).toMatchObject({ checkId, targetId, userId, outcome: 'no_change' });
    expect(more).toEqual([]);
    // ADR 0032: neither an outbox row nor a consumed-event record.
    expect(
      (await harness.events('checks.completed')).filter((row) => row.id === `checked:${checkId}`),
    ).toEqual([]);
    const consumed = await harness.db.query('SELECT 1 FROM diff.processed_events WHERE event_id = $1', [
      checkId,
    ]);
    expect(consumed.rowCount).toBe(0);
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

describe('the settings a check carries', () => {
  it('judges a check with the settings it ran with, though the site was edited before it arrived', async () => {
    const userId = `user-${randomUUID()}`;
    const targetId = await harness.registerSite(userId, [{ areaId: 'stock' }]);
    expect((await check(userId, targetId, [area('stock', 'Stock: 5 left')])).outcome).toBe('no_change');
    // The check was sent with the registered settings; the edit is saved while it is under way.
    const ranWith = harness.watchOf(targetId);
    await harness.updateSite(userId, targetId, [{ areaId: 'stock', options: { excludeNumbers: true } }]);
    expect(harness.watchOf(targetId)).not.toEqual(ranWith);

    const late = `${targetId}:${randomUUID()}`;
    await harness.publishSnapshot({
      checkId: late,
      targetId,
      userId,
      areas: [area('stock', 'Stock: 7 left')],
      watch: ranWith,
    });
    // The registered settings count numbers, so this is an update although the edit would not.
    expect((await harness.resultOf(late)).outcome).toBe('update');
    // The next check, sent with the edited settings, ignores numbers.
    expect((await check(userId, targetId, [area('stock', 'Stock: 9 left')])).outcome).toBe('no_change');
  });

  it('judges a check racing its registration with its own settings, before any targets.* event', async () => {
    const userId = `user-${randomUUID()}`;
    // A site the target service has not announced (its targets.registered still on its way).
    const targetId = randomUUID();
    const watch = {
      areas: [{ areaId: 'stock', optionsJson: JSON.stringify({ excludeNumbers: true }) }],
      rulesJson: '',
      screenshot: false,
      keepUpdates: 0,
      keepCheckDays: 0,
    };
    const carried = async (text: string) => {
      const checkId = `${targetId}:${randomUUID()}`;
      await harness.publishSnapshot({ checkId, targetId, userId, areas: [area('stock', text)], watch });
      return (await harness.resultOf(checkId)).outcome;
    };
    expect(await carried('Stock: 5 left')).toBe('no_change');
    expect(await carried('Stock: 6 left')).toBe('no_change');
    expect(await carried('Sold out')).toBe('update');
  });

  it('records a check that carried no settings as an invalid job, keeping the versions', async () => {
    const userId = `user-${randomUUID()}`;
    const targetId = await harness.registerSite(userId, [{ areaId: 'stock' }]);
    expect((await check(userId, targetId, [area('stock', 'Stock: 5 left')])).outcome).toBe('no_change');
    const bare = `${targetId}:${randomUUID()}`;
    await harness.publishSnapshot({
      checkId: bare,
      targetId,
      userId,
      areas: [area('stock', 'Sold out')],
      watch: undefined,
    });
    expect(await harness.resultOf(bare)).toMatchObject({ outcome: 'error', error_code: 'invalid_job' });
    expect((await check(userId, targetId, [area('stock', 'Stock: 5 left')])).outcome).toBe('no_change');
  });
});
