import type { CikIsinItem, CikOption, IsinOption, TdnetEdinetItem } from '../../api/filings.ts';

/*
 * One key per company, shared by a search option and the followed item it becomes, so the
 * search can say which options are already followed and the list can flag the one just added.
 */

export function japaneseCompanyKey(company: Pick<TdnetEdinetItem, 'edinet'>): string {
  return `edinet:${company.edinet}`;
}

/** An SEC company by its CIK, without the zeros the SEC pads it with in some places. */
export function cikKey(company: Pick<CikOption, 'cik'>): string {
  return `cik:${company.cik.replace(/^0+(?=.)/, '')}`;
}

export function isinKey(company: Pick<IsinOption, 'isin'>): string {
  return `isin:${company.isin.toUpperCase()}`;
}

/** A cik_isins item holds an ISIN follow when its ISIN is set, else an SEC one. */
export function cikIsinKey(item: Pick<CikIsinItem, 'cik' | 'isin'>): string {
  return item.isin !== '' ? isinKey(item) : cikKey(item);
}
