import { apiRequest } from './client.ts';

/** A site-list row (spec section 3) as GET /api/v2/targets sends it. */
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
 * Spec section 7: a v1 site is acted on under /api with `target_id`, a v2 site under /api/v2
 * with `target_v2_id`.
 */
export function actOnSite(action: SiteAction, site: Pick<SiteRow, 'id' | 'ver'>): Promise<unknown> {
  const [path, body] =
    site.ver === 1
      ? [`/api/${action}`, { target_id: site.id }]
      : [`/api/v2/${action}`, { target_v2_id: site.id }];
  return apiRequest(path, { method: 'POST', body });
}
