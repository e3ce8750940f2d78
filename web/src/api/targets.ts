import type {
  HeldSitesResumed,
  ImportFormat,
  ImportOutcome,
  PatternCheck,
  TargetList,
  TargetRow,
} from '@mimamori/http-api';
import { apiRequest } from './client.ts';

/** The site row and list as GET /api/v2/targets sends them; the shapes are the gateway's own. */
export type { TargetList, TargetRow } from '@mimamori/http-api';

export type TargetAction = 'pause' | 'resume' | 'delete';

export function fetchTargetList(signal?: AbortSignal): Promise<TargetList> {
  return apiRequest<TargetList>('/api/v2/targets', signal ? { signal } : {});
}

/**
 * docs/product.md#targets: a v1 site is acted on under /api with `target_id`, a v2 site under /api/v2
 * with `target_v2_id`.
 */
export function actOnTarget(action: TargetAction, site: Pick<TargetRow, 'id' | 'ver'>): Promise<unknown> {
  const [path, body] =
    site.ver === 1
      ? [`/api/${action}`, { target_id: site.id }]
      : [`/api/v2/${action}`, { target_v2_id: site.id }];
  return apiRequest(path, { method: 'POST', body });
}

/**
 * POST /api/v2/resume_held: once a hold is lifted, resumes the sites the hold paused, as far as the
 * plan's free slots go; the answer says how many resumed and how many stay paused.
 */
export function resumeHeldSites(): Promise<HeldSitesResumed> {
  return apiRequest<HeldSitesResumed>('/api/v2/resume_held', { method: 'POST' });
}

/** A line the import could not take carries the gateway's reason code. */
export type { ImportFormat, ImportOutcome, ImportProblem } from '@mimamori/http-api';

/**
 * POST /api/v1/import: whole-page (v1) sites from a URL list, CSV (url, label) or urlwatch's
 * urls.yaml; an empty format lets the gateway tell which. Sites beyond the plan's free slots
 * are saved paused.
 */
export function importSites(input: { text: string; format: ImportFormat | '' }): Promise<ImportOutcome> {
  return apiRequest<ImportOutcome>('/api/v1/import', { method: 'POST', body: input });
}

export type { PatternCheck } from '@mimamori/http-api';

/**
 * POST /api/v2/pattern/check: a rule's regular expression checked as it is typed, by the same RE2
 * check Register makes (docs/product.md#rules).
 */
export function checkPattern(pattern: string, signal?: AbortSignal): Promise<PatternCheck> {
  return apiRequest<PatternCheck>('/api/v2/pattern/check', {
    method: 'POST',
    body: { pattern },
    ...(signal ? { signal } : {}),
  });
}
