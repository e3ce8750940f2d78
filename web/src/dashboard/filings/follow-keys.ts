import type { CikIsinItem, CikIsinOption, TdnetEdinetItem } from '../../api/filings.ts';

/*
 * One key per company, shared by a search option and the followed item it becomes, so the
 * search can say which options are already followed and the list can flag the one just added.
 */

export function japaneseCompanyKey(company: Pick<TdnetEdinetItem, 'edinet'>): string {
  return `edinet:${company.edinet}`;
}

/** An ISIN follow is keyed by its ISIN, an SEC one by its CIK without the zeros the SEC pads with. */
export function cikIsinKey(company: Pick<CikIsinOption | CikIsinItem, 'cik' | 'isin'>): string {
  if (company.isin !== '') return `isin:${company.isin.toUpperCase()}`;
  return `cik:${company.cik.replace(/^0+(?=.)/, '')}`;
}
