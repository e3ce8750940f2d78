import type { TFunction } from 'i18next';
import type { CikIsinItem, CikOption, IsinOption, TdnetEdinetItem } from '../../api/filings.ts';
import { cikIsinKey, cikKey, isinKey, japaneseCompanyKey } from './follow-keys.ts';

/**
 * A company as a search option or a followed item shows it: its name and its codes, and whether
 * it comes from the bundled demo (a badge says so).
 */
export type CompanyLine = { key: string; name: string; codes: string[]; demo?: boolean };

/**
 * What a button names its company by: the name and its first code, since two follows can share
 * a name (a company followed both by CIK and by ISIN).
 */
export function companyLabel(line: CompanyLine): string {
  return [line.name, line.codes[0]].filter(Boolean).join(' ');
}

export function japaneseCompanyLine(t: TFunction, company: TdnetEdinetItem): CompanyLine {
  const codes = [t('dashboard.filings.edinetCode', { code: company.edinet })];
  // An unlisted filer has an EDINET code only.
  if (company.tdnet !== '') codes.unshift(t('dashboard.filings.securitiesCode', { code: company.tdnet }));
  return { key: japaneseCompanyKey(company), name: company.name1, codes };
}

export function secCompanyLine(t: TFunction, company: CikOption): CompanyLine {
  const codes = [t('dashboard.filings.cik', { code: company.cik })];
  if (company.ticker !== '') codes.push(t('dashboard.filings.ticker', { code: company.ticker }));
  return { key: cikKey(company), name: company.label, codes };
}

export function isinIssuerLine(t: TFunction, issuer: IsinOption): CompanyLine {
  return {
    key: isinKey(issuer),
    name: issuer.label,
    codes: [t('dashboard.filings.isinCode', { code: issuer.isin })],
  };
}

/** A followed cik_isins item: an ISIN follow when its ISIN is set, else an SEC one. */
export function cikIsinLine(t: TFunction, item: CikIsinItem): CompanyLine {
  const line = item.isin !== '' ? isinIssuerLine(t, item) : secCompanyLine(t, item);
  return { ...line, key: cikIsinKey(item) };
}
