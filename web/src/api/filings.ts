import type { CikIsinItem, CikOption, IsinOption, TdnetEdinetItem } from '@mimamori/http-api';
import { apiRequest } from './client.ts';

/*
 * The eight filings paths (docs/product.md#filings). The lists the section shows come from
 * user_info's `tdedinets` and `cik_isins`, so after a register or delete the SPA reloads user_info
 * rather than trusting each answer's own shape.
 */

/** The options the searches answer and the items user_info lists; the shapes are the gateway's own. */
export type { CikIsinItem, CikOption, IsinOption, TdnetEdinetItem } from '@mimamori/http-api';

/** POST /api/tdedi/search: Japanese companies by securities code, EDINET code or name. */
export function searchJapaneseCompanies(query: string, signal?: AbortSignal): Promise<TdnetEdinetItem[]> {
  return apiRequest<TdnetEdinetItem[]>('/api/tdedi/search', post({ query }, signal));
}

export function followJapaneseCompany(option: TdnetEdinetItem): Promise<unknown> {
  return apiRequest('/api/tdedi/register', post(option));
}

export function unfollowJapaneseCompany(item: TdnetEdinetItem): Promise<unknown> {
  return apiRequest('/api/tdedi/delete', post(item));
}

/** POST /api/cik/search: SEC filers by CIK, ticker or keyword. */
export function searchSecCompanies(query: string, signal?: AbortSignal): Promise<CikOption[]> {
  return apiRequest<CikOption[]>('/api/cik/search', post({ query }, signal));
}

export function followSecCompany(option: CikOption): Promise<unknown> {
  return apiRequest('/api/cik/register', post(option));
}

/** POST /api/isin/search: GlobeNewswire issuers by a checked ISIN; 429 while the source is busy. */
export function searchIsin(isin: string, signal?: AbortSignal): Promise<IsinOption[]> {
  return apiRequest<IsinOption[]>('/api/isin/search', post({ isin }, signal));
}

export function followIsin(option: IsinOption): Promise<unknown> {
  return apiRequest('/api/isin/register', post(option));
}

/** POST /api/cikisin/delete: an SEC or ISIN follow. */
export function unfollowCikIsin(item: CikIsinItem): Promise<unknown> {
  return apiRequest('/api/cikisin/delete', post(item));
}

function post(body: unknown, signal?: AbortSignal) {
  return signal ? { method: 'POST' as const, body, signal } : { method: 'POST' as const, body };
}
