import type { Logger } from '@mimamori/runtime';
import type { Clock } from './domain/clock.ts';
import type { ExpiredRowsPort } from './domain/expired-rows.ts';
import { SIGN_IN_WINDOW_MS } from './domain/sign-in-throttle.ts';
import { sweepTrials, type TrialPort } from './domain/trial.ts';

/**
 * Every `intervalMs`: moves trials on (hold, cancel), puts unpaid renewals on hold, purges deleted
 * accounts past their grace period, sweeps the audit log past its retention and prunes expired rows. A failed sweep is
 * logged and the next one tries again; the first runs one interval after start, once the
 * host has migrated the schema.
 */
export function startAccountSweeper(deps: {
  trials: TrialPort;
  expired: ExpiredRowsPort;
  clock: Clock;
  graceMs: number;
  /** Billing: status 6 past its deadline goes on hold; null without billing. */
  holds: (() => Promise<string[]>) | null;
  /** Deleted accounts past their grace period are erased everywhere (AccountPurged). */
  purges: () => Promise<string[]>;
  /** The audit log's retention (ADR 0036): entries past their plan's days, and purged workspaces'. */
  auditLog: () => Promise<number>;
  intervalMs: number;
  logger: Logger;
}): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const sweep = async () => {
    const now = deps.clock.now();
    const { held, cancelled } = await sweepTrials(deps.trials, now, deps.graceMs);
    if (held.length || cancelled.length) deps.logger.info({ held, cancelled }, 'trials swept');
    const unpaid = (await deps.holds?.()) ?? [];
    if (unpaid.length) deps.logger.info({ held: unpaid }, 'unpaid renewals put on hold');
    const purged = await deps.purges();
    if (purged.length) deps.logger.info({ purged: purged.length }, 'deleted accounts purged');
    const swept = await deps.auditLog();
    if (swept) deps.logger.info({ swept }, 'audit entries past their retention removed');
    await deps.expired.pruneExpired(now, new Date(now.getTime() - SIGN_IN_WINDOW_MS));
  };
  const tick = () => {
    if (running) return;
    running = sweep()
      .catch((error: unknown) => deps.logger.error({ err: error }, 'account sweep failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, deps.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
