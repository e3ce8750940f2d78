import { type Caller, demandOf, fitsDemand, type TargetNeed, targetFits } from './target-quota.ts';
import type { TargetRecord, TargetSettingsRecord } from './target-record.ts';

/** One row of the dashboard's site list (docs/product.md#targets). */
export interface TargetRowView {
  id: string;
  ver: 1 | 2;
  no: number;
  label: string;
  url: string;
  valid: boolean;
  new: boolean;
  proxy: boolean;
  updated: Date | null;
  checked: Date | null;
  resumable: boolean;
  /** Paused by the account's hold: a lifted hold offers to resume it (docs/product.md#subscription). */
  pausedForHold: boolean;
  intervalMinutes: number;
  failing: { since: Date; kind: string } | null;
}

export function needOf(
  settings: Pick<TargetSettingsRecord, 'intervalMinutes' | 'useProxy' | 'screenshot' | 'chatNotify'>,
): TargetNeed {
  return {
    intervalMinutes: settings.intervalMinutes,
    useProxy: settings.useProxy,
    screenshot: settings.screenshot,
    chatNotify: settings.chatNotify !== 'none',
  };
}

/** A paused site is resumable when it fits beside the sites that are monitoring. */
export function isResumable(caller: Caller, site: TargetRecord, sites: readonly TargetRecord[]): boolean {
  if (!site.paused) return false;
  const active = sites.filter((other) => !other.paused && other.id !== site.id).map(needOf);
  return targetFits(caller, active, needOf(site));
}

export function toTargetRow(site: TargetRecord, resumable: boolean): TargetRowView {
  return {
    id: site.id,
    ver: site.version,
    no: site.no,
    label: site.label,
    url: site.url,
    valid: !site.paused,
    new: site.isNew,
    proxy: site.useProxy,
    updated: site.lastUpdateAt,
    checked: site.lastCheckedAt,
    resumable,
    pausedForHold: site.paused && site.pausedReason === 'hold',
    intervalMinutes: site.intervalMinutes,
    failing: site.failing,
  };
}

export function targetRows(caller: Caller, sites: readonly TargetRecord[]): TargetRowView[] {
  // Paused sites are not in the active demand, so one sum serves every row.
  const demand = demandOf(sites.filter((site) => !site.paused).map(needOf));
  return sites.map((site) => toTargetRow(site, site.paused && fitsDemand(caller, demand, needOf(site))));
}
