import { NO_QUIET_HOURS, type QuietHours } from '@mimamori/quiet-hours';
import type { NotificationProfile } from './notification-profile.ts';
import type { SiteQuietMode, TargetNotice } from './target-notice.ts';

export function siteQuietMode(value: string): SiteQuietMode {
  return value === 'none' || value === 'own' ? value : 'account';
}

/** The quiet hours that hold for a site's updates and alerts. */
export function siteQuietHours(notice: TargetNotice, profile: NotificationProfile): QuietHours {
  switch (notice.quietMode) {
    case 'none':
      return NO_QUIET_HOURS;
    case 'own':
      return notice.quietHours;
    default:
      return profile.quietHours;
  }
}

/** The product's time as the notifier reads it; tests move it by hand across days. */
export interface NotifierClock {
  now(): Date;
  /** How long to wait in real time for `ms` of the product's time (MIMAMORI_TIME_SCALE). */
  realMs(ms: number): number;
}

export function systemClock(timeScale = 1): NotifierClock {
  return { now: () => new Date(), realMs: (ms) => Math.max(1, Math.round(ms / timeScale)) };
}
