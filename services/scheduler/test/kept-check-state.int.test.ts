import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispatcher } from '../src/dispatch/dispatcher.ts';
import { keepCheckState, schedulesStartedIn } from '../src/store/schedule-store.ts';
import {
  eventually,
  ManualClock,
  MINUTE,
  newSite,
  type SchedulerHarness,
  startSchedulerHarness,
} from './scheduler-harness.ts';

/**
 * What a check leaves for the next ones (ADR 0016): the session a check's snapshot carries is
 * sent, sealed as it came, with the site's next checks, and so is its areas' digest; the crawler
 * replays the login only when the session has lapsed (services/crawler/test/kept-login.int.test.ts)
 * and takes no screenshot when the areas read the same.
 */
describe('kept check state (PostgreSQL + JetStream)', () => {
  let harness: SchedulerHarness;
  let clock: ManualClock;
  let dispatcher: Dispatcher;
  const start = Date.UTC(2026, 0, 1, 9, 0, 0);
  /** Sites are saved before the test clock's first check, as they are in life. */
  const savedAt = new Date(start - 60 * MINUTE);

  beforeAll(async () => {
    harness = await startSchedulerHarness();
    await harness.startScheduler();
    clock = new ManualClock(start);
    dispatcher = harness.dispatcher(clock);
    await dispatcher.tick();
  });
  afterAll(async () => {
    await harness?.close();
  });

  async function nextCheck(targetId: string) {
    clock.advance(MINUTE);
    await dispatcher.tick();
    const checks = (await harness.takeChecks()).filter((check) => check.targetId === targetId);
    expect(checks).toHaveLength(1);
    return checks[0] as NonNullable<(typeof checks)[0]>;
  }

  const keptOf = async (targetId: string) => {
    const { rows } = await harness.db.query<{ sealed_session_state: string }>(
      'SELECT sealed_session_state FROM scheduler.kept_check_state WHERE target_id = $1',
      [targetId],
    );
    return rows[0]?.sealed_session_state;
  };
  const keep = (targetId: string, sealedSessionState: string, checkDueAt: Date) =>
    keepCheckState(harness.db, { targetId, sealedSessionState, areasDigest: '', checkDueAt });
  const nextCheckPeek = async (targetId: string) => {
    const { rows } = await harness.db.query<{ areas_digest: string }>(
      'SELECT areas_digest FROM scheduler.kept_check_state WHERE target_id = $1',
      [targetId],
    );
    return rows[0]?.areas_digest;
  };
  const untilKept = (targetId: string, sealed: string) =>
    eventually(async () => (await keptOf(targetId)) === sealed, `session ${sealed} kept`);

  it('sends the session the last check kept with every next check, until a newer check keeps another', async () => {
    const site = newSite(1);
    await harness.publishState('registered', site, savedAt);
    await harness.untilApplied(site.targetId, 1);

    const first = await nextCheck(site.targetId);
    expect(first.sealedSessionState).toBe('');
    await harness.publishKeptState(site.targetId, first.dueAt as Date, {
      sealedSessionState: 'sealed-session-1',
    });
    await untilKept(site.targetId, 'sealed-session-1');

    const second = await nextCheck(site.targetId);
    expect(second.sealedSessionState).toBe('sealed-session-1');
    const third = await nextCheck(site.targetId);
    expect(third.sealedSessionState).toBe('sealed-session-1');

    await harness.publishKeptState(site.targetId, third.dueAt as Date, {
      sealedSessionState: 'sealed-session-2',
    });
    await untilKept(site.targetId, 'sealed-session-2');
    expect((await nextCheck(site.targetId)).sealedSessionState).toBe('sealed-session-2');
  });

  it('an older check’s session arriving late does not replace a newer one, nor does a redelivery', async () => {
    const site = newSite(1);
    await harness.publishState('registered', site, savedAt);
    await harness.untilApplied(site.targetId, 1);
    const later = new Date(start + 30 * MINUTE);
    const earlier = new Date(start + 20 * MINUTE);
    expect(await keep(site.targetId, 'new', later)).toBe(true);
    expect(await keep(site.targetId, 'old', earlier)).toBe(false);
    expect(await keep(site.targetId, 'again', later)).toBe(false);
    expect(await keptOf(site.targetId)).toBe('new');
  });

  it('a session kept before the site’s settings changed is not sent (a changed login may be someone else’s), nor kept', async () => {
    const site = newSite(1);
    await harness.publishState('registered', site, savedAt);
    await harness.untilApplied(site.targetId, 1);
    const first = await nextCheck(site.targetId);
    await harness.publishKeptState(site.targetId, first.dueAt as Date, {
      sealedSessionState: 'before-the-change',
    });
    await untilKept(site.targetId, 'before-the-change');

    // The login changed after that check was due.
    await harness.publishState('updated', { ...site, revision: 2 }, new Date(clock.now().getTime() + 1_000));
    await harness.untilApplied(site.targetId, 2);
    clock.advance(MINUTE);
    const afterChange = await nextCheck(site.targetId);
    expect(afterChange.sealedSessionState).toBe('');
    expect(await keep(site.targetId, 'late-from-before', first.dueAt as Date)).toBe(false);

    await harness.publishKeptState(site.targetId, afterChange.dueAt as Date, {
      sealedSessionState: 'after-the-change',
    });
    await untilKept(site.targetId, 'after-the-change');
    expect((await nextCheck(site.targetId)).sealedSessionState).toBe('after-the-change');
  });

  it('keeps what a start check left: it is due at the start itself, which is the change, and carries the new settings (ADR 0020)', async () => {
    const site = newSite(10);
    const startedAt = new Date(clock.now().getTime() + 1_000);
    await harness.publishState('registered', site, startedAt);
    await harness.untilApplied(site.targetId, 1);
    expect(await keep(site.targetId, 'from-the-start-check', startedAt)).toBe(true);
    // The second start check, a minute later, is sent with it.
    const started = await schedulesStartedIn(harness.db, new Date(startedAt.getTime() - 1), startedAt);
    expect(started.find((row) => row.targetId === site.targetId)?.sealedSessionState).toBe(
      'from-the-start-check',
    );
    // A check due before the change is still neither kept nor sent.
    expect(await keep(site.targetId, 'from-before', new Date(startedAt.getTime() - 1))).toBe(false);
  });

  it('a deleted site’s session goes with its schedule, and a snapshot of a site without a schedule keeps nothing', async () => {
    const site = newSite(1);
    await harness.publishState('registered', site, savedAt);
    await harness.untilApplied(site.targetId, 1);
    const first = await nextCheck(site.targetId);
    await harness.publishKeptState(site.targetId, first.dueAt as Date, {
      sealedSessionState: 'to-be-deleted',
    });
    await untilKept(site.targetId, 'to-be-deleted');

    await harness.publishDeleted({ ...site, revision: 2 });
    await harness.untilApplied(site.targetId, undefined);
    expect(await keptOf(site.targetId)).toBeUndefined();
    expect(await keep(site.targetId, 'after-delete', new Date(start + 90 * MINUTE))).toBe(false);
  });

  it('sends the areas’ digest of the last successful check; a check without a session keeps the earlier session', async () => {
    const site = newSite(1);
    await harness.publishState('registered', site, savedAt);
    await harness.untilApplied(site.targetId, 1);
    const first = await nextCheck(site.targetId);
    expect(first.previousAreasDigest).toBe('');
    await harness.publishKeptState(site.targetId, first.dueAt as Date, {
      sealedSessionState: 'signed-in',
      areasDigest: 'digest-1',
    });
    await untilKept(site.targetId, 'signed-in');

    const second = await nextCheck(site.targetId);
    expect(second).toMatchObject({ sealedSessionState: 'signed-in', previousAreasDigest: 'digest-1' });
    await harness.publishKeptState(site.targetId, second.dueAt as Date, { areasDigest: 'digest-2' });
    await eventually(
      async () => (await nextCheckPeek(site.targetId)) === 'digest-2',
      'the second digest kept',
    );
    const third = await nextCheck(site.targetId);
    expect(third).toMatchObject({ sealedSessionState: 'signed-in', previousAreasDigest: 'digest-2' });

    await harness.publishKeptState(site.targetId, third.dueAt as Date, { areasDigest: 'digest-3' });
    await eventually(
      async () => (await nextCheckPeek(site.targetId)) === 'digest-3',
      'the third digest kept',
    );
    const fourth = await nextCheck(site.targetId);
    expect(fourth.previousAreasDigest).toBe('digest-3');
  });

  it('a check that read the areas as kept and brought no new session writes nothing, unless the settings changed since (ADR 0032)', async () => {
    const site = newSite(1);
    await harness.publishState('registered', site, savedAt);
    await harness.untilApplied(site.targetId, 1);
    const first = await nextCheck(site.targetId);
    const keepDigest = (digest: string, dueAt: Date, session = '') =>
      keepCheckState(harness.db, {
        targetId: site.targetId,
        sealedSessionState: session,
        areasDigest: digest,
        checkDueAt: dueAt,
      });
    const dueAt = first.dueAt as Date;
    expect(await keepDigest('same', dueAt, 'signed-in')).toBe(true);
    expect(await keepDigest('same', new Date(dueAt.getTime() + MINUTE))).toBe(false);
    expect(await keepDigest('same', new Date(dueAt.getTime() + 2 * MINUTE), 'signed-in')).toBe(false);
    // A new session or a new digest is written.
    expect(await keepDigest('same', new Date(dueAt.getTime() + 3 * MINUTE), 'signed-in-again')).toBe(true);
    expect(await keepDigest('other', new Date(dueAt.getTime() + 4 * MINUTE))).toBe(true);
    // After a settings change the kept state is stamped by the next check, else it would not be sent.
    const changedAt = new Date(dueAt.getTime() + 5 * MINUTE);
    await harness.publishState('updated', { ...site, revision: 2 }, changedAt);
    await harness.untilApplied(site.targetId, 2);
    expect(await keepDigest('other', new Date(changedAt.getTime() + MINUTE))).toBe(true);
    expect(await keepDigest('other', new Date(changedAt.getTime() + 2 * MINUTE))).toBe(false);
  });

  it('sends what a full render kept for revalidating until another render keeps more; a check answered without one keeps it', async () => {
    const site = newSite(1);
    await harness.publishState('registered', site, savedAt);
    await harness.untilApplied(site.targetId, 1);
    const revalidationOf = async () => {
      const { rows } = await harness.db.query<{ sealed_revalidation_state: string }>(
        'SELECT sealed_revalidation_state FROM scheduler.kept_check_state WHERE target_id = $1',
        [site.targetId],
      );
      return rows[0]?.sealed_revalidation_state;
    };
    const first = await nextCheck(site.targetId);
    expect(first.sealedRevalidationState).toBe('');
    await harness.publishKeptState(site.targetId, first.dueAt as Date, {
      areasDigest: 'd1',
      sealedRevalidationState: 'rendered-1',
    });
    await eventually(async () => (await revalidationOf()) === 'rendered-1', 'the first state kept');
    const second = await nextCheck(site.targetId);
    expect(second.sealedRevalidationState).toBe('rendered-1');
    // Answered over HTTP: the snapshot brings no state, and the rendered one stays.
    await harness.publishKeptState(site.targetId, second.dueAt as Date, { areasDigest: 'd2' });
    await eventually(async () => (await nextCheckPeek(site.targetId)) === 'd2', 'the second digest kept');
    const third = await nextCheck(site.targetId);
    expect(third.sealedRevalidationState).toBe('rendered-1');
    // A render that read the areas as kept still keeps its new state.
    await harness.publishKeptState(site.targetId, third.dueAt as Date, {
      areasDigest: 'd2',
      sealedRevalidationState: 'rendered-3',
    });
    await eventually(async () => (await revalidationOf()) === 'rendered-3', 'the newer state kept');
    expect((await nextCheck(site.targetId)).sealedRevalidationState).toBe('rendered-3');
  });
});
