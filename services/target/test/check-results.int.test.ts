import type { BusMessage } from '@mimamori/bus';
import { checkCompleted } from '@mimamori/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConsumer } from '../src/events/check-consumer.ts';
import { createTargetStore } from '../src/store/target-store.ts';
import { targetBody } from './target-bodies.ts';
import type { TargetBrowser } from './target-browser.ts';
import { startTargetHarness, type TargetHarness } from './target-harness.ts';

let harness: TargetHarness;

beforeAll(async () => {
  harness = await startTargetHarness();
});

afterAll(async () => {
  await harness?.close();
});

type Row = {
  id: string;
  new: boolean;
  updated: string | null;
  checked: string | null;
  failing: { since: string; kind: string } | null;
};

async function row(browser: TargetBrowser, id: string): Promise<Row | undefined> {
  return ((await browser.get('/api/v2/targets')).body.targets as Row[]).find(
    (candidate) => candidate.id === id,
  );
}

function completed(
  targetId: string,
  userId: string,
  checkId: string,
  at: string,
  outcome: string,
  errorCode = '',
) {
  return checkCompleted.encode({
    eventId: `checked:${checkId}`,
    checkId,
    targetId,
    userId,
    dueAt: new Date(at),
    completedAt: new Date(at),
    outcome,
    errorCode,
    errorDetail: '',
    updateId: outcome === 'update' ? `u-${checkId}` : '',
    errorAreaId: '',
  });
}

function delivery(data: Uint8Array, msgId: string): BusMessage {
  return {
    subject: checkCompleted.subject,
    data,
    msgId,
    headers: {},
    deliveryCount: 1,
    ack() {},
    nak() {},
    term() {},
    working() {},
  };
}

describe("the site list's checked, updated and NEW follow checks.completed", () => {
  it('moves checked on every check and updated with NEW on an update, through JetStream', async () => {
    const { browser, userId } = await harness.signedIn('checks@example.com');
    const id = String((await browser.post('/api/v2/target/register', targetBody())).body.target_v2_id);
    expect(await row(browser, id)).toMatchObject({ new: false, updated: null, checked: null });

    const t1 = '2026-11-23T10:00:00.000Z';
    await harness.bus.publish(checkCompleted.subject, completed(id, userId, 'c1', t1, 'no_change'), {
      msgId: 'checked:c1',
    });
    for (let i = 0; i < 600 && (await row(browser, id))?.checked === null; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await row(browser, id)).toMatchObject({ new: false, updated: null, checked: t1 });

    const t2 = '2026-11-23T10:10:00.000Z';
    await harness.bus.publish(checkCompleted.subject, completed(id, userId, 'c2', t2, 'update'), {
      msgId: 'checked:c2',
    });
    for (let i = 0; i < 600 && (await row(browser, id))?.updated === null; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await row(browser, id)).toMatchObject({ new: true, updated: t2, checked: t2 });

    // Opening the history clears NEW, for the owner only.
    const stranger = await harness.signedIn('stranger@example.com');
    expect((await stranger.browser.post('/api/v2/seen', { target_v2_id: id })).status).toBe(404);
    expect((await browser.post('/api/seen', { target_id: id })).status).toBe(404);
    expect(await row(browser, id)).toMatchObject({ new: true });
    expect(await browser.post('/api/v2/seen', { target_v2_id: id })).toMatchObject({
      status: 200,
      body: { status: 'seen', target: { id, new: false } },
    });
  });

  it('ignores a check delivered twice or arriving after a newer one, and checks of other users’ sites', async () => {
    const { browser, userId } = await harness.signedIn('late@example.com');
    const other = await harness.signedIn('other@example.com');
    const id = String((await browser.post('/api/v2/target/register', targetBody())).body.target_v2_id);
    const { handler } = checkConsumer(createTargetStore(harness.db));

    const newer = '2026-11-23T12:00:00.000Z';
    await handler(delivery(completed(id, userId, 'n1', newer, 'update'), 'checked:n1'));
    await harness.db.query('UPDATE target.targets SET is_new = false WHERE id = $1', [id]);
    // Redelivered: already applied, so the NEW flag the user cleared stays cleared.
    await handler(delivery(completed(id, userId, 'n1', newer, 'update'), 'checked:n1'));
    expect(await row(browser, id)).toMatchObject({ new: false, updated: newer, checked: newer });

    await handler(delivery(completed(id, userId, 'o1', '2026-11-23T11:00:00.000Z', 'update'), 'checked:o1'));
    expect(await row(browser, id)).toMatchObject({ new: false, updated: newer, checked: newer });

    await handler(
      delivery(completed(id, other.userId, 'x1', '2026-11-23T13:00:00.000Z', 'update'), 'checked:x1'),
    );
    expect(await row(browser, id)).toMatchObject({ new: false, updated: newer, checked: newer });
  });

  it('shows a site failing once one kind failed its alert count in a row, since the first, until a success', async () => {
    const { browser, userId } = await harness.signedIn('failing@example.com');
    const id = String(
      (await browser.post('/api/v2/target/register', { ...targetBody(), failure_alert_after: 2 })).body
        .target_v2_id,
    );
    const stored = await browser.get(`/api/v2/target?id=${id}`);
    expect(stored.body.settings).toMatchObject({ failure_alert_after: 2 });
    const { handler } = checkConsumer(createTargetStore(harness.db));
    const check = (n: number, outcome: string, code = '') =>
      handler(
        delivery(
          completed(id, userId, `f${n}`, `2026-11-23T10:0${n}:00.000Z`, outcome, code),
          `checked:f${n}`,
        ),
      );

    await check(1, 'error', 'timeout');
    await check(2, 'error', 'element_not_found');
    expect((await row(browser, id))?.failing).toBeNull();
    await check(3, 'error', 'element_not_found');
    expect((await row(browser, id))?.failing).toEqual({
      since: '2026-11-23T10:01:00.000Z',
      kind: 'element_not_found',
    });
    await check(4, 'no_change');
    expect((await row(browser, id))?.failing).toBeNull();
    // Out of the range the product allows: refused, naming the field.
    const refused = await browser.post('/api/v2/target/register', {
      ...targetBody(),
      failure_alert_after: 101,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      code: 'failure_alert_after_invalid',
      message_key: 'errors.failure_alert_after_invalid',
      field: 'failure_alert_after',
    });
  });

  it('an unchanged check writes the list’s time alone; a failure that finished before a newer check shows no failing (ADR 0032)', async () => {
    const { browser, userId } = await harness.signedIn('quiet@example.com');
    const id = String(
      (await browser.post('/api/v2/target/register', { ...targetBody(), failure_alert_after: 1 })).body
        .target_v2_id,
    );
    const { handler } = checkConsumer(createTargetStore(harness.db));
    const siteRow = async () =>
      (
        await harness.db.query<{ xmin: string }>(
          "SELECT xmin::text || ':' || xmax::text AS xmin FROM target.targets WHERE id = $1",
          [id],
        )
      ).rows[0]?.xmin;
    const consumed = async () =>
      (
        await harness.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM target.processed_events WHERE consumer = 'target-check-completed'`,
        )
      ).rows[0]?.n;
    const t1 = '2026-11-23T10:00:00.000Z';
    const t2 = '2026-11-23T10:01:00.000Z';
    // The first check inserts the site's time row (its foreign key takes a share lock on the site).
    await handler(delivery(completed(id, userId, 'q1', t1, 'no_change'), 'checked:q1'));
    const before = { site: await siteRow(), consumed: await consumed() };
    await handler(delivery(completed(id, userId, 'q2', t2, 'no_change'), 'checked:q2'));
    expect(await row(browser, id)).toMatchObject({ checked: t2, failing: null });
    // The site's own row was neither rewritten nor locked, and no consumed-event record was kept.
    expect({ site: await siteRow(), consumed: await consumed() }).toEqual(before);

    // A failure due between them, reported late: the newer check worked.
    const late = completed(id, userId, 'q0', '2026-11-23T10:00:30.000Z', 'error', 'timeout');
    await handler(delivery(late, 'checked:q0'));
    expect(await row(browser, id)).toMatchObject({ checked: t2, failing: null });
    // A failure after them is shown at once (the site alerts after one).
    const t3 = '2026-11-23T10:02:00.000Z';
    await handler(delivery(completed(id, userId, 'q3', t3, 'error', 'timeout'), 'checked:q3'));
    expect(await row(browser, id)).toMatchObject({ checked: t3, failing: { since: t3, kind: 'timeout' } });
  });
});
