import { NO_QUIET_HOURS } from '@mimamori/quiet-hours';
import { DEFAULT_ALERT_AFTER } from '@mimamori/watch-engine';
import { reportUsage } from './report-usage.ts';
import type { TargetPort } from './target-port.ts';
import {
  type Caller,
  KEEP_ALL_HISTORY,
  MAX_TARGETS_PER_USER,
  NO_READER,
  targetFits,
} from './target-quota.ts';
import type { TargetRecord } from './target-record.ts';
import { needOf, type TargetRowView, targetRows } from './target-row.ts';
import { type ImportFormat, type ImportProblem, readUrlList } from './url-import.ts';

export interface ImportOutcome {
  format: ImportFormat;
  imported: TargetRowView[];
  problems: (ImportProblem | { line: number; code: 'already_registered'; text: string })[];
}

/** v1 sites are whole-page watches checked hourly until the user edits them. */
const V1_INTERVAL_MINUTES = 60;

/**
 * Creates v1 sites from a URL list. Each takes a free slot while one is left; the rest are
 * saved paused (docs/product.md#quotas). A URL the user already watches as a v1 site is reported.
 */
export async function importTargets(
  caller: Caller,
  text: string,
  format: ImportFormat | '',
  deps: { targets: TargetPort; newId(): string },
): Promise<ImportOutcome> {
  const reading = readUrlList(text, format);
  return deps.targets.forUser(caller.userId, null, async (unit) => {
    const sites = await unit.allTargets();
    const watched = new Set(sites.filter((site) => site.version === 1).map((site) => site.url));
    const problems: ImportOutcome['problems'] = [...reading.problems];
    const created: TargetRecord[] = [];
    for (const entry of reading.sites) {
      if (watched.has(entry.url)) {
        problems.push({ line: entry.line, code: 'already_registered', text: entry.url });
        continue;
      }
      if (sites.length + created.length >= MAX_TARGETS_PER_USER) {
        problems.push({ line: entry.line, code: 'too_many', text: entry.url });
        continue;
      }
      const active = [...sites, ...created].filter((site) => !site.paused).map(needOf);
      const settings = v1Settings(entry.url, entry.label);
      const fits = targetFits(caller, active, needOf(settings));
      const record: TargetRecord = {
        ...settings,
        id: deps.newId(),
        userId: caller.userId,
        version: 1,
        no: await unit.nextNo(),
        paused: !fits,
        pausedReason: fits ? null : caller.held ? 'hold' : 'quota',
        isNew: false,
        revision: 1,
        lastUpdateAt: null,
        lastCheckedAt: null,
        failing: null,
        reader: caller.reader ?? NO_READER,
        history: caller.history ?? KEEP_ALL_HISTORY,
      };
      await unit.insert(record);
      await unit.publish('registered', record);
      created.push(record);
    }
    if (created.length > 0) await reportUsage(unit);
    problems.sort((a, b) => a.line - b.line);
    const rows = targetRows(caller, [...sites, ...created]);
    const ids = new Set(created.map((site) => site.id));
    return { format: reading.format, imported: rows.filter((row) => ids.has(row.id)), problems };
  });
}

function v1Settings(url: string, label: string) {
  return {
    label,
    url,
    intervalMinutes: V1_INTERVAL_MINUTES,
    screenshot: false,
    useProxy: false,
    mailNotify: true,
    chatNotify: 'none' as const,
    sealedDiscordWebhook: '',
    userAgentKind: 'none' as const,
    userAgentValue: '',
    viewportWidth: 0,
    viewportHeight: 0,
    sealedCookies: '',
    login: null,
    actions: [],
    areas: [],
    rules: null,
    fetchMode: 'http' as const,
    contentKind: 'page' as const,
    failureAlertAfter: DEFAULT_ALERT_AFTER,
    silenceAlertDays: 0,
    alwaysRender: false,
    quietMode: 'account' as const,
    quietHours: NO_QUIET_HOURS,
  };
}
