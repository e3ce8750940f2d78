import { type CatalogEntry, idempotent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { streams, targetUsageChanged } from '@mimamori/events';
import { NO_QUOTA } from '@mimamori/plans';
import { ACCOUNT_SCHEMA } from '../store/migrations.ts';
import { recordTargetUsage } from '../store/target-usage-store.ts';

/** user_info's used_num follows the target service's usage reports (targets.usage_changed). */
export function targetUsageConsumer(db: Db): CatalogEntry {
  return {
    stream: streams.targets.name,
    durable: 'account-site-usage',
    subject: targetUsageChanged.subject,
    maxDeliver: 10,
    ackWaitMs: 30_000,
    handler: idempotent(db, ACCOUNT_SCHEMA, 'account-site-usage', async (message, tx) => {
      const report = targetUsageChanged.decode(message.data);
      await recordTargetUsage(tx, {
        userId: report.userId,
        revision: report.revision,
        demand: {
          ...NO_QUOTA,
          _60min: report.min60,
          _10min: report.min10,
          _1min: report.min1,
          random_ip: report.randomIp,
          ss: report.ss,
          line_notify: report.lineNotify,
        },
      });
    }),
  };
}
