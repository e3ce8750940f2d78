/** Where filings come from; each has its own adapter behind FilingSource. */
export type SourceName = 'tdnet' | 'edinet' | 'sec' | 'globenewswire';

/** One document a company published, as its source lists it. */
export interface Filing {
  source: SourceName;
  /** The source's own id: TDnet PDF stem, EDINET docID, SEC accession number, GlobeNewswire guid. */
  key: string;
  /** What a follow matches on: TDnet 4-character code, EDINET code, CIK, ISIN. */
  companyCode: string;
  companyName: string;
  title: string;
  documentUrl: string;
  publishedAt: Date;
}

/**
 * The port every source adapter implements. `list` answers the filings of these companies the
 * source shows now; it throws SourceError when the source failed or refused, so an error is
 * never read as "no filings".
 */
export interface FilingSource {
  readonly name: SourceName;
  list(companyCodes: readonly string[], now: Date): Promise<Filing[]>;
}

export type SourceErrorKind =
  /** The source asked us to slow down (HTTP 429, SEC's 403 threshold page). */
  | 'rate_limited'
  /** The source refused us (an invalid EDINET key, SEC's 403 without a User-Agent). */
  | 'refused'
  /** Network failure, 5xx, or a page that is not there. */
  | 'unavailable'
  /** An answer we cannot read (an EDINET status in the body, a page without its list). */
  | 'bad_answer';

export class SourceError extends Error {
  override readonly name = 'SourceError';
  constructor(
    readonly source: SourceName,
    readonly kind: SourceErrorKind,
    message: string,
  ) {
    super(`${source}: ${message}`);
  }
}
