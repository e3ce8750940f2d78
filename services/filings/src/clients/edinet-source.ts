import { type Filing, type FilingSource, SourceError } from '../domain/filing.ts';
import { getFromSource, japanDaysToRead, japanTime, jsonBody, type SourceHttp } from './source-http.ts';

/** Opens a document without a key; what a notice links to. */
export const EDINET_DOCUMENT_LINK = 'https://disclosure2.edinet-fsa.go.jp/WZEK0040.aspx';

interface DocumentRow {
  docID?: string | null;
  edinetCode?: string | null;
  filerName?: string | null;
  docDescription?: string | null;
  submitDateTime?: string | null;
  withdrawalStatus?: string | null;
}

/**
 * EDINET's document list API v2: today's list in Japan (and yesterday's just after midnight)
 * with metadata (`type=2`), kept for the
 * followed EDINET codes. EDINET answers errors with HTTP 200 and a status in the body, either
 * top-level (`StatusCode`/`statusCode`, e.g. 401 for a bad key) or in `metadata.status`; both
 * are errors here.
 */
export function edinetSource(http: SourceHttp, baseUrl: string, apiKey: string): FilingSource {
  const documentsOf = async (day: string): Promise<DocumentRow[]> => {
    const url = new URL(`${baseUrl.replace(/\/$/, '')}/documents.json`);
    url.searchParams.set('date', day);
    url.searchParams.set('type', '2');
    url.searchParams.set('Subscription-Key', apiKey);
    const body = jsonBody('edinet', await getFromSource(http, url), 'documents.json') as {
      StatusCode?: number | string;
      statusCode?: number | string;
      message?: string;
      metadata?: { status?: string; message?: string };
      results?: DocumentRow[];
    };
    const topStatus = body.StatusCode ?? body.statusCode;
    if (topStatus !== undefined) throw statusError(Number(topStatus), body.message ?? '');
    const status = body.metadata?.status;
    if (status !== '200') throw statusError(Number(status), body.metadata?.message ?? 'no metadata.status');
    if (!Array.isArray(body.results))
      throw new SourceError('edinet', 'bad_answer', 'status 200 without results');
    return body.results;
  };
  return {
    name: 'edinet',
    async list(companyCodes, now) {
      const wanted = new Set(companyCodes);
      const filings: Filing[] = [];
      for (const day of japanDaysToRead(now)) {
        for (const row of await documentsOf(day)) {
          // Withdrawals are listed on the day they happened; they are not new documents.
          if (!row.docID || !row.edinetCode || row.withdrawalStatus !== '0') continue;
          if (!wanted.has(row.edinetCode) || !row.submitDateTime) continue;
          const [date = '', time = '00:00'] = row.submitDateTime.split(' ');
          filings.push({
            source: 'edinet',
            key: row.docID,
            companyCode: row.edinetCode,
            companyName: row.filerName ?? '',
            title: row.docDescription ?? '',
            documentUrl: `${EDINET_DOCUMENT_LINK}?${row.docID},,`,
            publishedAt: japanTime(date, time),
          });
        }
      }
      return filings;
    },
  };
}

function statusError(status: number, message: string): SourceError {
  const kind = status === 401 || status === 403 ? 'refused' : status === 429 ? 'rate_limited' : 'bad_answer';
  return new SourceError('edinet', kind, `status ${status} in the body: ${message}`);
}
