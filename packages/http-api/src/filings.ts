import { z } from 'zod';
import { refusal } from './api-error.ts';
import { cikIsinItem, tdnetEdinetItem } from './user-info.ts';

// The dashboard's filings section (docs/product.md#filings): the spec's eight paths. Searches
// answer the options to choose from; register and delete answer the user's list of that kind
// as user_info carries it (tdedinets, or cik_isins for CIK and ISIN items together).

const text = (description: string) => z.string().describe(description);

export const filingsSearchBody = z.object({
  query: text('At least 3 characters: a securities code, EDINET code, CIK, ticker or company name'),
});
export const isinSearchBody = z.object({
  isin: text('12 characters with a valid ISO 6166 check digit; checked before any source is asked'),
});

/** Present, and true, only on an answer from the bundled demo source (docs/filings.md#trying-filings). */
const demo = z
  .literal(true)
  .optional()
  .describe('From the bundled demo set, not a real source: only when no source is switched on');

/** A company of the Japanese directory; the same item user_info's tdedinets lists, and the demo mark. */
export const tdedinetOption = tdnetEdinetItem
  .extend({ demo })
  .describe('EDINET code, TDnet (securities) code when listed, and the name shown as the label');
export type TdedinetOption = z.infer<typeof tdedinetOption>;
/** What /api/tdedi/register and /api/tdedi/delete take: the chosen option or the listed item. */
export const tdedinetBody = z.object({
  edinet: text('EDINET code (E + 5 digits)'),
  tdnet: z.string().optional(),
  name1: z.string().optional(),
});

export const cikOption = z
  .object({ label: z.string(), cik: z.string().describe('Unpadded CIK'), ticker: z.string(), demo })
  .meta({ id: 'CikOption', description: 'An SEC registrant' });
export type CikOption = z.infer<typeof cikOption>;
export const cikRegisterBody = z.object({
  cik: text('CIK, as the search answered it'),
  label: z.string().optional(),
  ticker: z.string().optional(),
});

export const isinOption = z
  .object({ label: z.string().describe('The issuer as GlobeNewswire names it'), isin: z.string(), demo })
  .meta({ id: 'IsinOption', description: 'An issuer found on GlobeNewswire by ISIN' });
export type IsinOption = z.infer<typeof isinOption>;
export const isinRegisterBody = z.object({
  isin: text('12 characters with a valid check digit'),
  label: z.string().max(200).optional().describe('The issuer as the search answered it'),
});

/** /api/cikisin/delete takes the listed item; its id names it. */
export const cikIsinDeleteBody = z.object({
  id: text('The item id user_info lists'),
  label: z.string().optional(),
  cik: z.string().optional(),
  ticker: z.string().optional(),
  isin: z.string().optional(),
});

export const tdedinetOptions = z.array(tdedinetOption).describe('Matching companies, best first');
export const cikOptions = z.array(cikOption).describe('Matching registrants, best first');
export const isinOptions = z.array(isinOption).describe('The issuer, or none when no release names it');
export const tdedinetList = z.array(tdnetEdinetItem).describe("The user's tdedinets after the change");
export const cikIsinList = z.array(cikIsinItem).describe("The user's cik_isins after the change");

/** GET /api/filings/sources: what the dashboard says about where filings come from. */
export const filingsSources = z
  .object({
    demo: z.boolean().describe('The bundled demo source answers: no real source is switched on'),
    sources: z
      .array(z.string())
      .describe('The real sources switched on (FILINGS_SOURCES): tdnet, edinet, sec, globenewswire'),
  })
  .meta({ id: 'FilingsSources', description: 'Where filings come from on this server' });
export type FilingsSources = z.infer<typeof filingsSources>;

export const filingsRefusals = {
  search: refusal('Not searched', ['query_too_short', 'bad_request']),
  isin: refusal("Not searched ('ISIN is 12 characters', 'ISIN is invalid')", [
    'isin_length',
    'isin_invalid',
    'bad_request',
  ]),
  register: refusal('Not registered', ['isin_length', 'isin_invalid', 'bad_request']),
  notFound: refusal('Not found (also another user’s item)', ['not_found']),
  limit: refusal('Following the most companies there may be', ['follow_limit']),
  busy: refusal("Too many searches: 'try again in a few minutes'", ['rate_limited']),
  unavailable: refusal(
    'Filings are not configured here, the source (named in field) is not switched on, or it could not be reached',
    ['filings_unavailable', 'source_off', 'source_unavailable'],
  ),
};
