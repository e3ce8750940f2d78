import type { TFunction } from 'i18next';
import type { CikIsinItem, CikIsinOption, TdnetEdinetItem } from '../../api/filings.ts';
import { cikIsinKey, japaneseCompanyKey } from './follow-keys.ts';

/** A company as a search option or a followed item shows it: its name and its codes. */
export type CompanyLine = { key: string; name: string; codes: string[] };

export function japaneseCompanyLine(t: TFunction, company: TdnetEdinetItem): CompanyLine {
  const codes = [t('dashboard.filings.edinetCode', { code: company.edinet })];
  // An unlisted filer has an EDINET code only.
  if (company.tdnet !== '') codes.unshift(t('dashboard.filings.securitiesCode', { code: company.tdnet }));
  return { key: japaneseCompanyKey(company), name: company.name1, codes };
}

export function cikIsinLine(t: TFunction, company: CikIsinOption | CikIsinItem): CompanyLine {
  const codes =
    company.isin !== ''
      ? [t('dashboard.filings.isinCode', { code: company.isin })]
      : [
          t('dashboard.filings.cik', { code: company.cik }),
          ...(company.ticker !== '' ? [t('dashboard.filings.ticker', { code: company.ticker })] : []),
        ];
  return { key: cikIsinKey(company), name: company.label, codes };
}
