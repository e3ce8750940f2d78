import type { diffV1, targetV1 } from '@mimamori/contracts';
import {
  type DiffRow,
  diffRow,
  type HistoryEntry,
  historyOutcome,
  type RegistrationData,
  ruleOperand,
} from '@mimamori/http-api';
import { updateSummary } from '@mimamori/watch-engine';
import { checkErrorJson } from './check-error-json.ts';

export type UpdateImage = 'before' | 'after';

/**
 * Where the SPA fetches a picture of an update. The picture is looked up again in the caller's
 * own history (update id, on its UTC day), so the URL names no blob and serves no one else.
 */
export function updateImageUrl(targetId: string, entry: diffV1.HistoryEntry, image: UpdateImage): string {
  const query = new URLSearchParams({
    id: targetId,
    image,
    update: entry.update?.updateId ?? '',
    day: utcDay(entry.completedAt ?? new Date(0)),
  });
  return `/api/v2/screenshot?${query}`;
}

/** Where the SPA fetches a picture of the data at registration: an area's, or the page's. */
export function registrationImageUrl(targetId: string, areaId: string | null): string {
  const query = new URLSearchParams(
    areaId === null
      ? { id: targetId, image: 'registration_page' }
      : { id: targetId, image: 'registration_area', area: areaId },
  );
  return `/api/v2/screenshot?${query}`;
}

export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Area labels by id, so history can name the areas as the user did. */
export function areaLabels(settings: targetV1.TargetSettings | undefined): Map<string, string> {
  return new Map((settings?.areas ?? []).map((area) => [area.areaId, area.label]));
}

/** An update's one line in each language, its areas named as the user named them. */
export function updateSummaryJson(
  areas: readonly diffV1.AreaDiff[],
  labels: Map<string, string>,
): { ja: string; en: string } {
  const lines = (lang: 'ja' | 'en') =>
    updateSummary(
      areas.map((area) => ({
        name: labels.get(area.areaId) || area.areaId,
        line: lang === 'ja' ? area.summaryJa : area.summaryEn,
      })),
      lang,
    );
  return { ja: lines('ja'), en: lines('en') };
}

/** One check of the site-detail history. */
export function historyEntryJson(
  targetId: string,
  entry: diffV1.HistoryEntry,
  labels: Map<string, string>,
): HistoryEntry {
  const update = entry.update;
  return {
    check_id: entry.checkId,
    due_at: entry.dueAt?.toISOString() ?? null,
    checked_at: entry.completedAt?.toISOString() ?? null,
    outcome: historyOutcome.parse(entry.outcome),
    error: entry.outcome === 'error' ? checkErrorJson(entry.errorCode, entry.errorDetail) : null,
    update: update
      ? {
          update_id: update.updateId,
          summary: updateSummaryJson(update.areas, labels),
          detected_at: update.detectedAt?.toISOString() ?? null,
          notify: update.notify,
          matched: update.matched.map((condition) => ({
            group_index: condition.groupIndex,
            condition_index: condition.conditionIndex,
            area_id: condition.areaId,
            operand: ruleOperand.parse(condition.operand),
            operator: condition.operator,
            value: condition.value,
          })),
          areas: update.areas.map((area) => ({
            area_id: area.areaId,
            label: labels.get(area.areaId) ?? area.areaId,
            diff_text: area.diffText,
            added: area.added,
            removed: area.removed,
            rows: diffRows(area.rowsJson),
            summary: { ja: area.summaryJa, en: area.summaryEn },
          })),
          screenshots: {
            before: update.beforeScreenshotBlobKey ? updateImageUrl(targetId, entry, 'before') : null,
            after: update.afterScreenshotBlobKey ? updateImageUrl(targetId, entry, 'after') : null,
          },
        }
      : null,
  };
}

/** The engine's rows ({kind, changed, old, new}) as the diff service stored them. */
function diffRows(rowsJson: string): DiffRow[] {
  if (!rowsJson) return [];
  const rows: unknown = JSON.parse(rowsJson);
  return Array.isArray(rows) ? diffRow.array().parse(rows) : [];
}

export function registrationDataJson(
  targetId: string,
  data: diffV1.GetRegistrationDataResponse,
  labels: Map<string, string>,
): Omit<RegistrationData, 'target'> {
  return {
    areas: data.areas.map((area) => ({
      area_id: area.areaId,
      label: labels.get(area.areaId) ?? area.areaId,
      text: area.text,
      recorded_at: area.recordedAt?.toISOString() ?? null,
      screenshot: area.screenshotBlobKey ? registrationImageUrl(targetId, area.areaId) : null,
    })),
    page_screenshot: data.pageScreenshotBlobKey ? registrationImageUrl(targetId, null) : null,
  };
}
