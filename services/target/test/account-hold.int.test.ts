import type { BusMessage } from '@mimamori/bus';
import type { accountsEventsV1 } from '@mimamori/contracts';
import { accountCancelled, accountHeld, planChanged, targetUpdated, trialEnded } from '@mimamori/events';
import { historyLimits } from '@mimamori/plans';
import { createLogger } from '@mimamori/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountConsumers } from '../src/events/account-consumers.ts';
import { createTargetStore } from '../src/store/target-store.ts';
import { targetBody } from './target-bodies.ts';
import type { TargetBrowser } from './target-browser.ts';
import { startTargetHarness, type TargetHarness } from './target-harness.ts';

const DAY_MS = 86_400_000;
let harness: TargetHarness;

beforeAll(async () => {
  // The account sweeper runs often so the trial's end shows up soon after the clock moves.
  harness = await startTargetHarness({ sweepIntervalMs: 100 });
});

afterAll(async () => {
  await harness?.close();
});

async function validity(browser: TargetBrowser) {
  const response = await browser.get('/api/v2/targets');
  return (response.body.targets as { valid: boolean; resumable: boolean }[]).map((row) => [
    row.valid,
    row.resumable,
  ]);
}

async function eventually<T>(read: () => Promise<T>, expected: T): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (JSON.stringify(await read()) === JSON.stringify(expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(await read()).toEqual(expected);
}

function delivery(event: accountsEventsV1.TrialEnded, msgId: string): BusMessage {
  return {
    subject: trialEnded.subject,
    data: trialEnded.encode(event),
    msgId,
    headers: {},
    deliveryCount: 1,
    ack() {},
    nak() {},
    term() {},
    working() {},
  };
}

describe('account hold', () => {
  it('delivered twice, accounts.trial_ended pauses the sites once; a site resumed in between stays resumed', async () => {
    const { browser, userId } = await harness.signedIn('twice@example.com');
    for (const label of ['a', 'b']) await browser.post('/api/v2/target/register', targetBody({ label }));
    const [handler] = accountConsumers(
      harness.db,
      createTargetStore(harness.db),
      createLogger({ service: 'test', level: 'silent' }),
    );
    const event = { eventId: 'trial-ended-1', userId, endedAt: new Date(), deleteAt: undefined };
    await handler?.handler(delivery(event, 'trial-ended-1'));
    expect(await validity(browser)).toEqual([
      [false, true],
      [false, true],
    ]);
    const first = (await browser.get('/api/v2/targets')).body.targets as { id: string }[];
    await browser.post('/api/v2/resume', { target_v2_id: first[0]?.id });

    await handler?.handler(delivery(event, 'trial-ended-1'));
    expect(await validity(browser)).toEqual([
      [true, false],
      [false, true],
    ]);
    const paused = (await harness.events('targets.paused')).filter((row) =>
      first.some((site) => row.id.includes(site.id)),
    );
    expect(paused).toHaveLength(2);
  });

  it("delivered twice, billing's accounts.held pauses the sites once", async () => {
    const { browser, userId } = await harness.signedIn('held-twice@example.com');
    for (const label of ['a', 'b']) await browser.post('/api/v2/target/register', targetBody({ label }));
    const held = accountConsumers(
      harness.db,
      createTargetStore(harness.db),
      createLogger({ service: 'test', level: 'silent' }),
    ).find((entry) => entry.subject === accountHeld.subject);
    const data = accountHeld.encode({
      eventId: 'held-1',
      userId,
      heldAt: new Date(),
      reason: 'renewal_unpaid',
    });
    for (let i = 0; i < 2; i++) {
      await held?.handler({
        ...delivery({ eventId: '', userId, endedAt: undefined, deleteAt: undefined }, 'held-1'),
        subject: accountHeld.subject,
        data,
      });
    }
    expect(await validity(browser)).toEqual([
      [false, true],
      [false, true],
    ]);
    const ids = ((await browser.get('/api/v2/targets')).body.targets as { id: string }[]).map(
      (row) => row.id,
    );
    const paused = (await harness.events('targets.paused')).filter((row) =>
      ids.some((id) => row.id.includes(id)),
    );
    expect(paused).toHaveLength(2);
  });

  it('after a lifted hold, resume_held resumes only the sites the hold paused, in list order, as far as free slots go', async () => {
    const { browser, userId } = await harness.signedIn('lifted@example.com');
    const other = await harness.signedIn('lifted-neighbour@example.com');
    // Basic 5: five hourly slots. Site a is paused by its owner before the hold; b..e are monitoring.
    for (const label of ['a', 'b', 'c', 'd', 'e'])
      await browser.post('/api/v2/target/register', targetBody({ label }));
    await other.browser.post('/api/v2/target/register', targetBody({ label: 'neighbour' }));
    const rows = async (who: TargetBrowser) =>
      (await who.get('/api/v2/targets')).body.targets as {
        id: string;
        label: string;
        valid: boolean;
        paused_for_hold: boolean;
      }[];
    const [a] = await rows(browser);
    await browser.post('/api/v2/pause', { target_v2_id: a?.id });
    const held = accountConsumers(
      harness.db,
      createTargetStore(harness.db),
      createLogger({ service: 'test', level: 'silent' }),
    ).find((entry) => entry.subject === accountHeld.subject);
    for (const [who, eventId] of [
      [userId, 'held-lifted-1'],
      [other.userId, 'held-lifted-2'],
    ] as const) {
      await held?.handler({
        ...delivery({ eventId: '', userId: who, endedAt: undefined, deleteAt: undefined }, eventId),
        subject: accountHeld.subject,
        data: accountHeld.encode({ eventId, userId: who, heldAt: new Date(), reason: 'trial_ended' }),
      });
    }
    expect((await rows(browser)).map((row) => [row.label, row.valid, row.paused_for_hold])).toEqual([
      ['a', false, false],
      ['b', false, true],
      ['c', false, true],
      ['d', false, true],
      ['e', false, true],
    ]);
    // While the hold lasted nothing else was added; once lifted, two new sites take two slots.
    for (const label of ['f', 'g']) await browser.post('/api/v2/target/register', targetBody({ label }));

    // Without the CSRF header the request is refused and changes nothing.
    const forged = await browser.postWithoutCsrf('/api/v2/resume_held');
    expect(forged.status).toBe(403);
    expect((await rows(browser)).filter((row) => row.valid)).toHaveLength(2);

    const answer = await browser.post('/api/v2/resume_held');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'resumed', resumed: 3, still_paused: 1 });
    expect((await rows(browser)).map((row) => [row.label, row.valid, row.paused_for_hold])).toEqual([
      ['a', false, false],
      ['b', true, false],
      ['c', true, false],
      ['d', true, false],
      ['e', false, true],
      ['f', true, false],
      ['g', true, false],
    ]);
    // Another account's held site is none of this account's business.
    expect((await rows(other.browser)).map((row) => [row.valid, row.paused_for_hold])).toEqual([
      [false, true],
    ]);

    // While the account is on hold, nothing resumes and the refusal names the hold.
    await harness.db.query('UPDATE account.subscriptions SET status = 7 WHERE user_id = $1', [other.userId]);
    const refused = await other.browser.post('/api/v2/resume_held');
    expect(refused.status).toBe(409);
    expect((refused.body.error as { code: string }).code).toBe('account_on_hold');
    expect((await rows(other.browser)).map((row) => row.valid)).toEqual([false]);
  });

  it('delivered twice, accounts.plan_changed moves every site, paused ones too, to the plan’s history limits once', async () => {
    const { browser, userId } = await harness.signedIn('plan-changed@example.com');
    for (const label of ['a', 'b']) await browser.post('/api/v2/target/register', targetBody({ label }));
    const ids = ((await browser.get('/api/v2/targets')).body.targets as { id: string }[]).map(
      (row) => row.id,
    );
    await browser.post('/api/v2/pause', { target_v2_id: ids[1] });
    const history = async () => {
      const { rows } = await harness.db.query<{ history_updates: number; history_days: number }>(
        'SELECT history_updates, history_days FROM target.targets WHERE id = ANY($1::uuid[]) ORDER BY id',
        [ids],
      );
      return rows.map((row) => [row.history_updates, row.history_days]);
    };
    // Saved under the trial's plan, which keeps the smallest history.
    const trial = historyLimits(3);
    expect(await history()).toEqual([
      [trial.updates, trial.checkDays],
      [trial.updates, trial.checkDays],
    ]);
    const changed = accountConsumers(
      harness.db,
      createTargetStore(harness.db),
      createLogger({ service: 'test', level: 'silent' }),
    ).find((entry) => entry.subject === planChanged.subject);
    const largest = historyLimits(11);
    expect(largest.updates).toBeGreaterThan(trial.updates);
    const data = planChanged.encode({ eventId: 'plan-changed-1', userId, plan: 11, changedAt: new Date() });
    for (let i = 0; i < 2; i++) {
      await changed?.handler({
        ...delivery({ eventId: '', userId, endedAt: undefined, deleteAt: undefined }, 'plan-changed-1'),
        subject: planChanged.subject,
        data,
      });
    }
    expect(await history()).toEqual([
      [largest.updates, largest.checkDays],
      [largest.updates, largest.checkDays],
    ]);
    // Each site's targets.updated carries the new limits to the diff service; the paused one stays paused.
    const updated = (await harness.events(targetUpdated.subject))
      .map((row) => targetUpdated.decode(row.payload))
      .filter((event) => ids.includes(event.targetId));
    expect(updated).toHaveLength(2);
    for (const event of updated) {
      expect(event.check?.watch).toMatchObject({
        keepUpdates: largest.updates,
        keepCheckDays: largest.checkDays,
      });
    }
    expect(updated.find((event) => event.targetId === ids[1])?.paused).toBe(true);
    expect(await validity(browser)).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it('delivered twice, accounts.cancelled deletes the sites once', async () => {
    const { browser, userId } = await harness.signedIn('cancelled-twice@example.com');
    for (const label of ['a', 'b']) await browser.post('/api/v2/target/register', targetBody({ label }));
    const ids = ((await browser.get('/api/v2/targets')).body.targets as { id: string }[]).map(
      (row) => row.id,
    );
    const [, cancelled] = accountConsumers(
      harness.db,
      createTargetStore(harness.db),
      createLogger({ service: 'test', level: 'silent' }),
    );
    const data = accountCancelled.encode({
      eventId: 'cancelled-1',
      userId,
      cancelledAt: new Date(),
      reason: 'trial_expired',
    });
    for (let i = 0; i < 2; i++)
      await cancelled?.handler({
        ...delivery({ eventId: '', userId, endedAt: undefined, deleteAt: undefined }, 'cancelled-1'),
        data,
      });
    expect((await browser.get('/api/v2/targets')).body.targets).toEqual([]);
    const deleted = (await harness.events('targets.deleted')).filter((row) =>
      ids.some((id) => row.id.includes(id)),
    );
    expect(deleted).toHaveLength(2);
    const processed = await harness.db.query(
      `SELECT 1 FROM target.processed_events WHERE consumer = 'target-account-cancelled' AND event_id = 'cancelled-1'`,
    );
    expect(processed.rowCount).toBe(1);
  });

  it('the trial ending without a card stops all monitoring; nothing resumes or starts while on hold; cancellation deletes the sites', async () => {
    const { browser } = await harness.signedIn('trial@example.com');
    for (const label of ['one', 'two']) await browser.post('/api/v2/target/register', targetBody({ label }));
    await browser.post('/api/v1/import', { text: 'https://v1.example/' });
    expect(await validity(browser)).toEqual([
      [true, false],
      [true, false],
      [true, false],
    ]);

    harness.clock.advance(15 * DAY_MS);
    await eventually(
      () => validity(browser),
      [
        [false, false],
        [false, false],
        [false, false],
      ],
    );
    const ids = ((await browser.get('/api/v2/targets')).body.targets as { id: string; ver: number }[]).map(
      (row) => row,
    );
    expect(await browser.post('/api/v2/resume', { target_v2_id: ids[0]?.id })).toMatchObject({
      status: 409,
      body: { error: { code: 'account_on_hold' } },
    });
    expect((await browser.post('/api/v2/target/register', targetBody())).body).toMatchObject({
      paused: true,
      paused_for_quota: true,
    });

    const owner = await harness.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM target.targets t JOIN account.users u ON u.id::text = t.user_id
        WHERE lower(u.email) = 'trial@example.com'`,
    );
    expect(owner.rows[0]?.n).toBe(4);
    harness.clock.advance(31 * DAY_MS);
    await eventually(async () => {
      const { rows } = await harness.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM target.targets t JOIN account.users u ON u.id::text = t.user_id
          WHERE lower(u.email) = 'trial@example.com'`,
      );
      return rows[0]?.n;
    }, 0);
    const deleted = await harness.events('targets.deleted');
    for (const site of ids) expect(deleted.map((row) => row.id)).toContain(`targets.deleted:${site.id}`);
  });
});
