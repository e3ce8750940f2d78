import { setTimeout as sleep } from 'node:timers/promises';
import { openPostgres } from '@mimamori/db';
import { type HttpVisitor, TEST_MINUTE_MS } from '@mimamori/test-fixtures';
import { describe, expect, it } from 'vitest';
import {
  linkDiscord,
  registerSite,
  signUpVerified,
  siteRow,
  untilChecked,
  WEBHOOK_ID,
} from './rig/account-steps.ts';
import { priceSiteRegistration } from './rig/price-site.ts';
import { useSystemRig } from './rig/system-rig.ts';
import { waitFor } from './rig/wait-for.ts';

// Issue 21, failure alerts with recovery, end to end: every service as its own process, real
// PostgreSQL, JetStream, an SMTP server and a Discord receiver. A site checked every minute (of the
// rig's scaled time) fails five checks in a row (its area vanished), then works again. The
// scheduler's backoff is capped at one minute so five failures take minutes, not the hour the
// default backoff would stretch them to.
const INTERVAL_MS = TEST_MINUTE_MS;
const EMAIL = 'alerts@example.jp';

const rig = useSystemRig('failure-alerts', () => ({ env: { SCHEDULER_BACKOFF_MAX_MINUTES: '1' } }));
let visitor: HttpVisitor;

/** Failed checks the diff service recorded for the site. */
async function failedChecks(targetId: string): Promise<number> {
  const db = openPostgres(rig().database.url, { max: 1 });
  try {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM diff.check_results WHERE target_id = $1 AND outcome = 'error'`,
      [targetId],
    );
    return rows[0]?.n ?? 0;
  } finally {
    await db.close();
  }
}

const row = (targetId: string) => siteRow(visitor, targetId);

const alertMails = () => rig().smtp.messages.filter((mail) => mail.subject?.includes('are failing'));
const recoveryMails = () => rig().smtp.messages.filter((mail) => mail.subject?.includes('is working again'));
const posts = () => rig().discord.accepted.filter((post) => post.webhookId === WEBHOOK_ID);

describe('failure alerts with recovery in cluster mode', () => {
  it('a site failing 5 times sends one alert per channel and, once it works, one recovery message', async () => {
    visitor = await signUpVerified(rig(), { email: EMAIL, plan: 4 });
    await linkDiscord(visitor);

    // Read over plain HTTP (no browser needed to tell an area is gone); alerts after 3 of a kind.
    const targetId = await registerSite(visitor, {
      ...priceSiteRegistration('Flaky page', rig().page.url('/flaky')),
      fetch_mode: 'http',
      screenshot: false,
    });
    await untilChecked(visitor, [targetId]);
    expect((await row(targetId))?.failing).toBeNull();

    rig().page.setBroken('/flaky', true);
    await waitFor(
      'the third failed check',
      async () => (await failedChecks(targetId)) >= 3,
      4 * INTERVAL_MS + 60_000,
    );
    const [alert] = await waitFor('the failure alert mail', () => alertMails()[0] && alertMails(), 60_000);
    await rig().discord.waitForAccepted(WEBHOOK_ID, 1, 60_000);
    expect(alert?.subject).toBe('Mimamori: checks of “Flaky page” are failing');
    expect(alert?.text).toContain('The last 3 checks of “Flaky page” failed: the area “Price” was not found');
    expect(posts()[0]?.payload.embeds[0]?.title).toBe('Mimamori: checks of “Flaky page” are failing');
    const failing = await waitFor(
      'the failing state on the list',
      async () => (await row(targetId))?.failing ?? undefined,
      30_000,
    );
    expect(failing.kind).toBe('element_not_found');

    // Two more failures tell nobody anything.
    await waitFor(
      'the fifth failed check',
      async () => (await failedChecks(targetId)) >= 5,
      3 * INTERVAL_MS + 60_000,
    );
    rig().page.setBroken('/flaky', false);
    const [recovery] = await waitFor(
      'the recovery mail',
      () => recoveryMails()[0] && recoveryMails(),
      3 * INTERVAL_MS + 30_000,
    );
    await rig().discord.waitForAccepted(WEBHOOK_ID, 2, 60_000);
    expect(recovery?.subject).toBe('Mimamori: “Flaky page” is working again');
    expect(posts()[1]?.payload.embeds[0]?.title).toBe('Mimamori: “Flaky page” is working again');
    await waitFor('the failing state to clear', async () => (await row(targetId))?.failing === null, 30_000);

    // Another good check later, still exactly one of each.
    const loads = rig().page.loads('/flaky');
    await waitFor('one more check', () => rig().page.loads('/flaky') > loads, 2 * INTERVAL_MS + 30_000);
    // Five more intervals: a second alert or recovery message would have come by now.
    await sleep(5 * INTERVAL_MS);
    expect(alertMails()).toHaveLength(1);
    expect(recoveryMails()).toHaveLength(1);
    expect(posts()).toHaveLength(2);
    expect(JSON.stringify(alert?.to)).toContain(EMAIL);
    expect(rig().discord.problems).toEqual([]);
  }, 180_000);
});
