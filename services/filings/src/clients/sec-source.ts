import { type Filing, type FilingSource, SourceError } from '../domain/filing.ts';
import { getFromSource, jsonBody, type SourceHttp } from './source-http.ts';

/** The newest filings read per company; a first follow stores these as already seen. */
const RECENT_LIMIT = 100;

export interface SecCompanyRow {
  cik: string;
  ticker: string;
  name: string;
}

export interface SecUrls {
  /** https://www.sec.gov: the tickers file and document links. */
  www: string;
  /** https://data.sec.gov: submissions. */
  data: string;
}

/**
 * SEC EDGAR submissions, one request per followed CIK (`CIK##########.json`, zero-padded),
 * at the pacer's rate (10 a second in total is the SEC's fair-access limit). `filings.recent`
 * is parallel arrays; a filing's key is its accession number.
 */
export function secSource(http: SourceHttp, urls: SecUrls): FilingSource {
  return {
    name: 'sec',
    async list(companyCodes) {
      const filings: Filing[] = [];
      for (const cik of companyCodes) {
        const url = new URL(`${urls.data.replace(/\/$/, '')}/submissions/CIK${cik.padStart(10, '0')}.json`);
        const body = jsonBody('sec', await getFromSource(http, url), url.pathname);
        filings.push(...recentFilings(cik, body, urls.www));
      }
      return filings;
    },
  };
}

interface Submissions {
  name?: string;
  filings?: {
    recent?: Record<string, unknown[] | undefined>;
  };
}

function recentFilings(cik: string, body: unknown, www: string): Filing[] {
  const submissions = body as Submissions;
  const recent = submissions.filings?.recent;
  const column = (name: string) => recent?.[name];
  const accessions = column('accessionNumber');
  if (!recent || !Array.isArray(accessions))
    throw new SourceError('sec', 'bad_answer', `submissions of CIK ${cik} without filings.recent`);
  const forms = column('form') ?? [];
  const documents = column('primaryDocument') ?? [];
  const descriptions = column('primaryDocDescription') ?? [];
  const accepted = column('acceptanceDateTime') ?? [];
  const filed = column('filingDate') ?? [];
  const filings: Filing[] = [];
  for (let i = 0; i < Math.min(accessions.length, RECENT_LIMIT); i++) {
    const accession = String(accessions[i]);
    const form = String(forms[i] ?? '');
    const description = String(descriptions[i] ?? '');
    const document = String(documents[i] ?? '');
    const folder = `${www.replace(/\/$/, '')}/Archives/edgar/data/${Number(cik)}/${accession.replaceAll('-', '')}`;
    filings.push({
      source: 'sec',
      key: accession,
      companyCode: cik,
      companyName: submissions.name ?? '',
      title: description && description !== form ? `${form} - ${description}` : form,
      documentUrl: document ? `${folder}/${document}` : `${folder}/${accession}-index.htm`,
      // acceptanceDateTime says Z but is New York time for some filers; the filing date is
      // the fallback when it is missing.
      publishedAt: new Date(String(accepted[i] ?? filed[i] ?? '')),
    });
  }
  return filings;
}

/** company_tickers.json: `{"0": {"cik_str": 320193, "ticker": "AAPL", "title": "Apple Inc."}, …}`. */
export async function fetchSecTickers(http: SourceHttp, www: string): Promise<SecCompanyRow[]> {
  const url = new URL(`${www.replace(/\/$/, '')}/files/company_tickers.json`);
  const body = jsonBody('sec', await getFromSource(http, url), url.pathname);
  if (!body || typeof body !== 'object')
    throw new SourceError('sec', 'bad_answer', 'company_tickers.json is not an object');
  const rows: SecCompanyRow[] = [];
  for (const value of Object.values(
    body as Record<string, { cik_str?: number; ticker?: string; title?: string }>,
  )) {
    if (typeof value?.cik_str !== 'number' || !value.ticker) continue;
    rows.push({ cik: String(value.cik_str), ticker: value.ticker, name: value.title ?? '' });
  }
  return rows;
}
