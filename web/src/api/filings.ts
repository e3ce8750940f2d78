import type {
  CikIsinItem,
  CikOption,
  FilingsSources,
  IsinOption,
  TdedinetOption,
  TdnetEdinetItem,
} from '@mimamori/http-api';
import { apiRequest } from './client.ts';

/*
 * The eight filings paths (docs/product.md#filings). Register and delete answer the user's list
 * of that kind after the change, as user_info carries it: `tdedinets`, or `cik_isins` for SEC and
 * ISIN follows together.
 */

/** The options the searches answer and the items user_info lists; the shapes are the gateway's own. */
export type {
  CikIsinItem,
  CikOption,
  FilingsSources,
  IsinOption,
  TdedinetOption,
  TdnetEdinetItem,
} from '@mimamori/http-api';

/** GET /api/filings/sources: the real sources switched on, or whether the bundled demo answers. */
export function getFilingsSources(): Promise<FilingsSources> {
  return apiRequest<FilingsSources>('/api/filings/sources');
}

/** POST /api/tdedi/search: Japanese companies by securities code, EDINET code or name. */
export function searchJapaneseCompanies(query: string, signal?: AbortSignal): Promise<TdedinetOption[]> {
  return apiRequest<TdedinetOption[]>('/api/tdedi/search', post({ query }, signal));
}

export function followJapaneseCompany(option: TdedinetOption): Promise<TdnetEdinetItem[]> {
  return apiRequest<TdnetEdinetItem[]>('/api/tdedi/register', post(option));
}

export function unfollowJapaneseCompany(item: TdnetEdinetItem): Promise<TdnetEdinetItem[]> {
  return apiRequest<TdnetEdinetItem[]>('/api/tdedi/delete', post(item));
}

/** POST /api/cik/search: SEC filers by CIK, ticker or keyword. */
export function searchSecCompanies(query: string, signal?: AbortSignal): Promise<CikOption[]> {
  return apiRequest<CikOption[]>('/api/cik/search', post({ query }, signal));
}

export function followSecCompany(option: CikOption): Promise<CikIsinItem[]> {
  return apiRequest<CikIsinItem[]>('/api/cik/register', post(option));
}

/** POST /api/isin/search: GlobeNewswire issuers by a checked ISIN; 429 while the source is busy. */
export function searchIsin(isin: string, signal?: AbortSignal): Promise<IsinOption[]> {
  return apiRequest<IsinOption[]>('/api/isin/search', post({ isin }, signal));
}

export function followIsin(option: IsinOption): Promise<CikIsinItem[]> {
  return apiRequest<CikIsinItem[]>('/api/isin/register', post(option));
}

/** POST /api/cikisin/delete: an SEC or ISIN follow. */
export function unfollowCikIsin(item: CikIsinItem): Promise<CikIsinItem[]> {
  return apiRequest<CikIsinItem[]>('/api/cikisin/delete', post(item));
}

function post(body: unknown, signal?: AbortSignal) {
  return signal ? { method: 'POST' as const, body, signal } : { method: 'POST' as const, body };
}
