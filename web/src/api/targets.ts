import { apiRequest } from './client.ts';

/** A site-list row (docs/product.md#targets) as GET /api/v2/targets sends it. */
export type SiteRow = {
  id: string;
  ver: 1 | 2;
  /** Registration order in the user's list. */
  no: number;
  label: string;
  url: string;
  /** Monitoring; false when paused. */
  valid: boolean;
  new: boolean;
  proxy: boolean;
  updated: string | null;
  checked: string | null;
  /** Paused, and a free slot of the plan exists to resume it. */
  resumable: boolean;
  interval_minutes: number;
};

export type SiteList = { targets: SiteRow[]; at: string };

export type SiteAction = 'pause' | 'resume' | 'delete';

export function fetchSiteList(signal?: AbortSignal): Promise<SiteList> {
  return apiRequest<SiteList>('/api/v2/targets', signal ? { signal } : {});
}

/**
 * A v1 site is acted on under /api with `target_id`, a v2 site under /api/v2
 * with `target_v2_id`.
 */
export function actOnSite(action: SiteAction, site: Pick<SiteRow, 'id' | 'ver'>): Promise<unknown> {
  const [path, body] =
    site.ver === 1
      ? [`/api/${action}`, { target_id: site.id }]
      : [`/api/v2/${action}`, { target_v2_id: site.id }];
  return apiRequest(path, { method: 'POST', body });
}

export type ImportFormat = 'list' | 'csv' | 'yaml';

/** A line the import could not take, with the gateway's reason code. */
export type ImportProblem = {
  line: number;
  code:
    | 'url_invalid'
    | 'duplicate'
    | 'already_registered'
    | 'unsupported_job'
    | 'label_too_long'
    | 'syntax_error'
    | 'too_many';
  text: string;
};

export type ImportOutcome = { format: ImportFormat; imported: SiteRow[]; problems: ImportProblem[] };

/**
 * POST /api/v1/import: whole-page (v1) sites from a URL list, CSV (url, label) or urlwatch's
 * urls.yaml; an empty format lets the gateway tell which. Sites beyond the plan's free slots
 * are saved paused.
 */
export function importSites(input: { text: string; format: ImportFormat | '' }): Promise<ImportOutcome> {
  return apiRequest<ImportOutcome>('/api/v1/import', { method: 'POST', body: input });
}
