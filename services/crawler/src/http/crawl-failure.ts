import type { CrawlErrorCode, FetchResult } from '../domain/page-fetcher.ts';

/** A check that cannot produce a snapshot, with what the user and the queue need to know. */
export class CrawlFailure extends Error {
  override readonly name = 'CrawlFailure';

  constructor(
    readonly code: CrawlErrorCode,
    readonly detail: string,
    readonly retryable: boolean,
    /** With element_not_found: the first area not found. */
    readonly areaId = '',
  ) {
    super(`${code}: ${detail}`);
  }

  toResult(): Extract<FetchResult, { ok: false }> {
    return {
      ok: false,
      code: this.code,
      detail: this.detail,
      retryable: this.retryable,
      ...(this.areaId ? { areaId: this.areaId } : {}),
    };
  }
}

/** Maps what undici, node:net or the egress guard threw to a failure the user can act on. */
export function classifyNetworkError(error: unknown, url: string, timedOut: boolean): CrawlFailure {
  if (error instanceof CrawlFailure) return error;
  const failure = error as { name?: string; code?: string; message?: string; cause?: unknown };
  const host = safeHost(url);
  if (failure.name === 'RefusedAddressError')
    return new CrawlFailure('refused_address', failure.message ?? host, false);
  if (timedOut || /Timeout/.test(failure.name ?? '') || /^UND_ERR_.*TIMEOUT$/.test(failure.code ?? '')) {
    return new CrawlFailure('timeout', `${host} did not answer in time`, true);
  }
  const code = failure.code ?? (failure.cause as { code?: string } | undefined)?.code ?? '';
  if (code === 'ENOTFOUND') return new CrawlFailure('unreachable', `${host} has no address (DNS)`, false);
  if (code === 'EAI_AGAIN') return new CrawlFailure('unreachable', `${host}: DNS lookup failed`, true);
  if (/CERT|SSL|TLS|ERR_TLS/.test(code) || /certificate/i.test(failure.message ?? '')) {
    return new CrawlFailure('unreachable', `${host}: TLS failed (${code || failure.message})`, false);
  }
  return new CrawlFailure('unreachable', `could not reach ${host}${code ? ` (${code})` : ''}`, true);
}

/**
 * A URL as failure details and logs show it: scheme, host, port and path, without user info,
 * query or fragment, where a watched URL may carry a token.
 */
export function shownUrl(url: string | URL): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `a ${parsed.protocol} URL`;
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'the page';
  }
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the site';
  }
}
