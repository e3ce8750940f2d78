import {
  type AreaDiff,
  type AreaResult,
  type AreaSnapshot,
  DEFAULT_AREA_OPTIONS,
  evaluateCheck,
  formatDiffText,
  summariseArea,
} from '@mimamori/watch-engine';
import type { WatchSettings } from './watch-settings.ts';

/** One area of a snapshot with its content resolved (blob-held content already read). */
export interface CapturedArea {
  areaId: string;
  found: boolean;
  html: string;
  text: string;
  screenshotBlobKey: string;
  /** Where the element is on the page screenshot, in its pixels, when the crawler measured it. */
  pageBox?: { x: number; y: number; width: number; height: number };
}

/** A recorded version of an area, as the engine compares it. */
export interface RecordedVersion {
  html: string | null;
  text: string | null;
}

/** One area's change as history and the notification show it. */
export interface AreaUpdate {
  areaId: string;
  diffText: string;
  added: string[];
  removed: string[];
  rows: AreaDiff['rows'];
  /** The area's one-line summary in each language (docs/product.md#summary). */
  summaryJa: string;
  summaryEn: string;
}

export interface MatchedRule {
  groupIndex: number;
  conditionIndex: number;
  areaId: string;
  operand: string;
  operator: string;
  value: string;
}

/** An area version to record, from the engine's normalised result. */
export interface VersionToRecord {
  area: CapturedArea;
  normalisedText: string;
  contentHash: string;
}

export type Judgement =
  | { outcome: 'error'; errorCode: string; errorDetail: string; errorAreaId: string }
  | { outcome: 'no_change'; record: VersionToRecord[] }
  | {
      outcome: 'update';
      notify: boolean;
      matched: MatchedRule[];
      changes: AreaUpdate[];
      record: VersionToRecord[];
    };

// The engine's 'area_not_found' is what users read as "element not found" (docs/product.md#check-errors),
// the same code the crawler uses when it cannot find an element.
const ERROR_CODES: Record<string, string> = { area_not_found: 'element_not_found' };

/**
 * Judges one successful snapshot against the recorded versions (newest first per area). A first
 * check of an area records its version (the data at registration) and is never an update; an
 * update records every area, so the next check compares with what the person saw in history.
 */
export function judgeCheck(
  areas: readonly CapturedArea[],
  settings: WatchSettings,
  versions: ReadonlyMap<string, readonly RecordedVersion[]>,
): Judgement {
  const optionsOf = new Map(settings.areas.map((area) => [area.areaId, area.options]));
  const result = evaluateCheck({
    areas: areas.map((area) => {
      const recorded = versions.get(area.areaId) ?? [];
      const options = optionsOf.get(area.areaId) ?? DEFAULT_AREA_OPTIONS;
      const past = options.excludeSameAsPast.enabled
        ? recorded.slice(0, options.excludeSameAsPast.count)
        : [];
      return {
        areaId: area.areaId,
        options,
        current: area.found ? snapshotOf(area) : null,
        previous: recorded[0] ? snapshotOf(recorded[0]) : null,
        pastUpdates: past.map(snapshotOf),
      };
    }),
    ...(settings.rules ? { rules: settings.rules } : {}),
  });
  if (result.kind === 'error') {
    const detail = result.areaId ? `${result.areaId}: ${result.message}` : result.message;
    return {
      outcome: 'error',
      errorCode: ERROR_CODES[result.reason] ?? result.reason,
      errorDetail: detail,
      errorAreaId: result.areaId ?? '',
    };
  }
  const byId = new Map(areas.map((area) => [area.areaId, area]));
  const toRecord = (keep: (outcome: AreaResult['outcome']) => boolean): VersionToRecord[] =>
    result.areas.flatMap((area) => {
      const captured = byId.get(area.areaId);
      if (!captured || area.outcome === 'error' || !keep(area.outcome)) return [];
      return [{ area: captured, normalisedText: area.text, contentHash: area.contentHash }];
    });
  if (result.kind === 'no_change') {
    return { outcome: 'no_change', record: toRecord((outcome) => outcome === 'first_check') };
  }
  return {
    outcome: 'update',
    notify: result.notify,
    matched: result.matchedConditions.map((match) => ({
      groupIndex: match.groupIndex,
      conditionIndex: match.conditionIndex,
      areaId: match.condition.areaId,
      operand: match.condition.operand,
      operator: match.condition.operator,
      value: match.condition.value,
    })),
    changes: result.areas.flatMap((area) =>
      area.outcome === 'updated'
        ? [
            {
              areaId: area.areaId,
              diffText: formatDiffText(area.diff),
              added: [...area.diff.added],
              removed: [...area.diff.removed],
              rows: area.diff.rows,
              summaryJa: summariseArea(area.diff, 'ja') ?? '',
              summaryEn: summariseArea(area.diff, 'en') ?? '',
            },
          ]
        : [],
    ),
    record: toRecord(() => true),
  };
}

/** Empty strings are absent: the engine then derives text from the markup. */
function snapshotOf(version: { html: string | null; text: string | null }): AreaSnapshot {
  return {
    ...(version.html ? { html: version.html } : {}),
    ...(version.text ? { text: version.text } : {}),
  };
}
