import type { TargetRow } from '../api/targets.ts';
import { routePaths } from '../route-paths.ts';

const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};

/**
 * A moment in the user's language and saved time zone. Without a zone (not chosen yet) or with
 * one this browser does not know, the browser's own zone is used rather than failing the list.
 * The SPA's one time format (24-hour, two-digit), used by the list, the detail page and the history.
 */
export function formatDateTime(iso: string, language: string, timeZone: string): string {
  const moment = new Date(iso);
  try {
    return new Intl.DateTimeFormat(language, { ...DATE_TIME, timeZone: timeZone || undefined }).format(
      moment,
    );
  } catch {
    return new Intl.DateTimeFormat(language, DATE_TIME).format(moment);
  }
}

/** docs/product.md#target-list: a v1 site opens its history (which clears NEW), a v2 site its detail page. */
export function sitePath(site: Pick<TargetRow, 'id' | 'ver'>): string {
  const path = site.ver === 1 ? routePaths.siteHistory : routePaths.targetDetail;
  return `${path}?id=${encodeURIComponent(site.id)}`;
}
