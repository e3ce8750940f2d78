import type { CatalogEntry } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import {
  streams,
  targetDeleted,
  targetPaused,
  targetRegistered,
  targetResumed,
  targetUpdated,
} from '@mimamori/events';
import { NO_QUIET_HOURS } from '@mimamori/quiet-hours';
import { DEFAULT_ALERT_AFTER } from '@mimamori/watch-engine';
import { siteQuietMode } from '../domain/site-quiet-hours.ts';
import { removeNotice, saveNotice } from '../store/notice-store.ts';

/**
 * The notifier's copy of each site's notice (label, URL, channels, per-site webhook). Every
 * state event carries the whole notice with the site's revision, so the newest revision wins in
 * any order of arrival and a redelivery changes nothing; a deleted site stays deleted.
 */
export function targetNoticeConsumers(db: Db): CatalogEntry[] {
  const stateEntries = [targetRegistered, targetUpdated, targetPaused, targetResumed].map(
    (type): CatalogEntry => ({
      stream: streams.targets.name,
      durable: `notifier-${type.subject.replace('.', '-')}`,
      subject: type.subject,
      maxDeliver: 10,
      ackWaitMs: 30_000,
      async handler(message) {
        const event = type.decode(message.data);
        const notice = event.notice;
        await saveNotice(
          db,
          {
            targetId: event.targetId,
            userId: event.userId,
            label: notice?.label ?? '',
            url: notice?.url ?? '',
            mailNotify: notice?.mailNotify ?? false,
            chatNotify: notice?.chatNotify || 'none',
            sealedDiscordWebhook: notice?.sealedDiscordWebhook ?? '',
            version: event.version,
            areaLabels: Object.fromEntries((notice?.areas ?? []).map((area) => [area.areaId, area.label])),
            failureAlertAfter: notice?.failureAlertAfter || DEFAULT_ALERT_AFTER,
            silenceAlertDays: notice?.silenceAlertDays ?? 0,
            quietMode: siteQuietMode(notice?.quietMode ?? ''),
            quietHours: notice?.quietHours ? { ...notice.quietHours } : NO_QUIET_HOURS,
          },
          Number(event.revision),
        );
      },
    }),
  );
  return [
    ...stateEntries,
    {
      stream: streams.targets.name,
      durable: 'notifier-targets-deleted',
      subject: targetDeleted.subject,
      maxDeliver: 10,
      ackWaitMs: 30_000,
      async handler(message) {
        const event = targetDeleted.decode(message.data);
        await removeNotice(db, event.targetId, event.userId, Number(event.revision));
      },
    },
  ];
}
