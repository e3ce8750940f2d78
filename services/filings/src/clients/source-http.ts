import { request } from 'undici';
import type { SourceName } from '../domain/filing.ts';
import { SourceError } from '../domain/filing.ts';
import type { RequestPacer } from '../domain/pacing.ts';

export interface SourceHttp {
  source: SourceName;
  /** Every request to the source waits for it: the source's own rate limit. */
  pacer: RequestPacer;
  /** Sent on every request: the SEC requires a contact, the others are asked politely. */
  userAgent: string;
  timeoutMs: number;
}

export interface SourceResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * GETs from a source at its pace and turns every failure into a SourceError, so an adapter
 * never reads a refusal or an outage as an empty list: 429 and SEC's "Request Rate Threshold
 * Exceeded" page are rate_limited, other 401/403 refused, 404, 5xx and network failures
 * unavailable. 200 and 304 come back; an adapter still checks the body.
 */
export async function getFromSource(
  http: SourceHttp,
  url: URL,
  headers: Record<string, string> = {},
): Promise<SourceResponse> {
  await http.pacer.take();
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, {
      method: 'GET',
      headers: { 'user-agent': http.userAgent, ...headers },
      headersTimeout: http.timeoutMs,
      bodyTimeout: http.timeoutMs,
    });
  } catch (error) {
    throw new SourceError(http.source, 'unavailable', `${url.pathname}: ${(error as Error).message}`);
  }
  const body = Buffer.from(await response.body.arrayBuffer());
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const status = response.statusCode;
  if (status === 200 || status === 304) return { status, headers: flat, body };
  const where = `${url.pathname} answered ${status}`;
  if (
    status === 429 ||
    (status === 403 && body.toString('latin1').includes('Request Rate Threshold Exceeded'))
  )
    throw new SourceError(http.source, 'rate_limited', where);
  if (status === 401 || status === 403) throw new SourceError(http.source, 'refused', where);
  if (status === 404 || status >= 500) throw new SourceError(http.source, 'unavailable', where);
  throw new SourceError(http.source, 'bad_answer', where);
}

/**
 * Decodes a body in the charset its Content-Type, `<meta charset>` or XML declaration names
 * (TDnet pages were UTF-8 when last checked, the EDINET code list is CP932, SEC Atom feeds
 * ISO-8859-1), UTF-8 when none is named.
 */
export function decodeBody(body: Buffer, contentType = ''): string {
  const head = body.subarray(0, 1_024).toString('latin1');
  const named =
    /charset=["']?([\w-]+)/i.exec(contentType)?.[1] ??
    /<meta[^>]+charset=["']?([\w-]+)/i.exec(head)?.[1] ??
    /<\?xml[^>]+encoding=["']([\w-]+)/i.exec(head)?.[1] ??
    'utf-8';
  try {
    return new TextDecoder(named).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** Reads a JSON body, or says the source answered something else. */
export function jsonBody(source: SourceName, response: SourceResponse, what: string): unknown {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new SourceError(source, 'bad_answer', `${what} is not JSON`);
  }
}

/** A time written in Japan (JST, UTC+9, no daylight saving) as `YYYY-MM-DD hh:mm[:ss]`. */
export function japanTime(date: string, time: string): Date {
  return new Date(`${date}T${time.length === 5 ? `${time}:00` : time}+09:00`);
}

/** The calendar day in Japan at `now`, as YYYY-MM-DD. */
export function japanDay(now: Date): string {
  return new Date(now.getTime() + 9 * 3_600_000).toISOString().slice(0, 10);
}

/** How long after midnight in Japan the day before is still read (longer than the longest backoff). */
const DAY_OVERLAP_MS = 6 * 3_600_000;

/**
 * The days in Japan whose lists a poll reads, newest first: today, and yesterday during the
 * first hours of today, so a filing listed just before midnight is not lost between two polls.
 */
export function japanDaysToRead(now: Date): string[] {
  return [...new Set([japanDay(now), japanDay(new Date(now.getTime() - DAY_OVERLAP_MS))])];
}
