import { setTimeout as sleep } from 'node:timers/promises';
import { openPostgres } from '@mimamori/db';
import { type HttpVisitor, type OwnServer, TEST_MINUTE_MS } from '@mimamori/test-fixtures';
import { expect } from 'vitest';
import type { ServiceName } from '../../scripts/cluster/launch-cluster.ts';
import { linkDiscord, registerSite, signUpVerified, untilChecked, WEBHOOK_ID } from '../rig/account-steps.ts';
import { priceSiteRegistration } from '../rig/price-site.ts';
import { type SystemRig, useSystemRig } from '../rig/system-rig.ts';
import { waitFor } from '../rig/wait-for.ts';

export { waitFor };

/** The check interval the site is registered with: the shortest there is, in the rig's scaled time. */
export const INTERVAL_MS = TEST_MINUTE_MS;
export const EMAIL = 'faults@example.jp';

/** The system rig on a NATS and a PostgreSQL of the test's own, which a fault test kills, halts and restarts. */
export type FaultRig = SystemRig & { nats: OwnServer; postgres: OwnServer };

/**
 * Starts the rig before the file's tests and closes it after them (its log kept in
 * test-results/system-faults-<name>.log); the returned function gives the running rig inside a test.
 */
export function useFaultRig(
  name: string,
  options: { smtpAcceptDelayMs?: number; env?: Record<string, string> } = {},
): () => FaultRig {
  const rig = useSystemRig(`faults-${name}`, () => ({ ...options, ownServers: true, logLevel: 'info' }));
  return () => rig() as FaultRig;
}

/**
 * Signs up (verified by the mailed link), links the account's Discord webhook and registers
 * the sale page with e-mail and Discord on; resolves once the registration check recorded the
 * page as it is, so the next change of the price is an update.
 */
export async function watchSalePage(rig: FaultRig): Promise<{ siteId: string; visitor: HttpVisitor }> {
  const visitor = await signUpVerified(rig, { email: EMAIL, plan: 4 });
  await linkDiscord(visitor);
  const siteId = await registerSite(visitor, priceSiteRegistration('Sale page', rig.page.url('/sale')));
  await untilChecked(visitor, [siteId]);
  return { siteId, visitor };
}

export const updateMails = (rig: FaultRig) =>
  rig.smtp.messages.filter((mail) => mail.subject === 'Mimamori: ¥1,200 → ¥980 (−18 %) | Sale page');

export const discordMessages = (rig: FaultRig) =>
  rig.discord.accepted.filter((message) => message.webhookId === WEBHOOK_ID);

/**
 * Watches the sale page and lowers its price; resolves once the check that will find the update
 * is loading the page, the moment a mid-pipeline fault is caused.
 */
export async function changePriceDuringCheck(rig: FaultRig): Promise<void> {
  await watchSalePage(rig);
  const loadsBefore = rig.page.loads('/sale');
  rig.page.setPrice('/sale', '¥980 sale');
  await waitFor(
    'the check loading the changed page',
    () => rig.page.loads('/sale') > loadsBefore,
    INTERVAL_MS + 60_000,
  );
}

/**
 * After a fault the services are to survive: the update reaches e-mail and Discord, stays at one
 * copy each for 15 s more, no service died and every one answers ready again (its connections
 * back). Logs the scenario's figures with the recovery counted from `recoveryFrom`.
 */
export async function expectUpdateDeliveredOnce(
  rig: FaultRig,
  scenario: string,
  recoveryFrom: number,
  figures: Record<string, number> = {},
): Promise<void> {
  await waitFor(
    'the update by e-mail and Discord',
    async () => updateMails(rig).length >= 1 && discordMessages(rig).length >= 1,
    180_000,
  );
  const recoveredMs = Date.now() - recoveryFrom;
  await sleep(15_000);

  const rows = await updateDeliveries(rig);
  console.info(
    JSON.stringify({
      scenario,
      update_mails: updateMails(rig).length,
      discord_messages: discordMessages(rig).length,
      ...figures,
      recovery_ms: recoveredMs,
      deliveries: rows,
    }),
  );
  expect(exitedServices(rig)).toEqual([]);
  expect(updateMails(rig)).toHaveLength(1);
  expect(updateMails(rig)[0]?.text).toContain('- ¥1,200\n+ ¥980 sale');
  expect(discordMessages(rig)).toHaveLength(1);
  expect(rows.map((row) => row.status)).toEqual(['sent', 'sent']);
  expect(rig.discord.problems).toEqual([]);
  for (const [service, opsUrl] of rig.cluster.opsUrls) {
    expect((await fetch(new URL('readyz', opsUrl))).status, service).toBe(200);
  }
}

/** The notifier's update deliveries as recorded; a fresh connection each time (servers restart). */
export async function updateDeliveries(
  rig: FaultRig,
): Promise<{ id: string; status: string; attempts: number }[]> {
  const db = openPostgres(rig.database.url, { max: 1 });
  try {
    const { rows } = await db.query<{ id: string; status: string; attempts: number }>(
      `SELECT id, status, attempts FROM notifier.deliveries WHERE id LIKE 'update:%' ORDER BY id`,
    );
    return rows;
  } finally {
    await db.close();
  }
}

/** Services that are no longer running (a crash the fault caused). */
export function exitedServices(rig: FaultRig): ServiceName[] {
  return [...rig.cluster.processes]
    .filter(([, child]) => child.exitCode !== null || child.signalCode !== null)
    .map(([service]) => service);
}

/** Log lines of level error or worse, for the failure message. */
export function errorLines(rig: FaultRig): string[] {
  return rig.lines.filter((line) => /"level":(50|60)/.test(line));
}
