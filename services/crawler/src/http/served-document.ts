import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { type Dispatcher, request } from 'undici';
import { CrawlFailure, classifyNetworkError, shownUrl } from './crawl-failure.ts';
import { decodePage } from './decode-page.ts';

export interface DocumentLimits {
  maxBytes: number;
  maxRedirects: number;
}

/** Bytes a page may still read, shared by its document and the frames read with it. */
export interface PageBudget {
  bytesLeft: number;
  readonly maxPageBytes: number;
}

export interface ServedDocument {
  finalUrl: string;
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body as served, decompressed: a PDF is read from its bytes. */
  body: Uint8Array;
}

export interface DocumentRequest {
  url: string;
  dispatcher: Dispatcher;
  headers: Record<string, string>;
  /** Cookies the site sets along a redirect chain, sent back to the same host. */
  cookieJar: Map<string, Map<string, string>>;
  signal: AbortSignal;
  /** Whether the overall deadline (not the caller) aborted the request. */
  timedOut: () => boolean;
  limits: DocumentLimits;
  budget: PageBudget;
}

/**
 * GETs a document, following redirects hop by hop (each hop's connection passes the egress
 * guard again), reading at most `maxBytes` (compressed and decompressed) and decoding it.
 */
export async function fetchServedDocument(document: DocumentRequest): Promise<ServedDocument> {
  let url = new URL(document.url);
  for (let hop = 0; ; hop += 1) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw refusedFrom(document.url, `refused a ${url.protocol} URL: only http and https are fetched`);
    }
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: 'GET',
        dispatcher: document.dispatcher,
        headers: withCookies(document.headers, document.cookieJar.get(url.host)),
        signal: document.signal,
      });
    } catch (error) {
      const failure = classifyNetworkError(error, url.href, document.timedOut());
      throw failure.code === 'refused_address' ? refusedFrom(document.url, failure.detail) : failure;
    }
    const headers = flatHeaders(response.headers);
    rememberCookies(document.cookieJar, url.host, response.headers['set-cookie']);
    const location = headers.location;
    if (response.statusCode >= 300 && response.statusCode < 400 && location) {
      await response.body.dump();
      if (hop + 1 > document.limits.maxRedirects) {
        throw new CrawlFailure(
          'too_many_redirects',
          `more than ${document.limits.maxRedirects} redirects from ${shownUrl(document.url)}`,
          false,
        );
      }
      url = new URL(location, url);
      continue;
    }
    const body = await readCapped(response, url.href, document);
    const { text } = decodePage(body, headers['content-type']);
    return { finalUrl: url.href, status: response.statusCode, headers, text, body };
  }
}

/** A refusal on any hop, told as the URL the user gave and why (never what a name resolved to). */
function refusedFrom(givenUrl: string, reason: string): CrawlFailure {
  return new CrawlFailure(
    'refused_address',
    `${shownUrl(givenUrl)} led to a refused destination: ${reason}`,
    false,
  );
}

async function readCapped(response: Dispatcher.ResponseData, url: string, document: DocumentRequest) {
  const { maxBytes } = document.limits;
  const tooLarge = () =>
    new CrawlFailure(
      'too_large',
      `${shownUrl(url)} is larger than ${Math.round(maxBytes / 1_048_576)} MB`,
      false,
    );
  if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
    response.body.destroy();
    throw tooLarge();
  }
  const { budget } = document;
  const pageTooLarge = () =>
    new CrawlFailure(
      'too_large',
      `the page and its frames came to more than ${Math.round(budget.maxPageBytes / 1_048_576)} MB`,
      false,
    );
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      budget.bytesLeft -= chunk.length;
      if (size > maxBytes || budget.bytesLeft < 0) {
        response.body.destroy();
        throw size > maxBytes ? tooLarge() : pageTooLarge();
      }
      chunks.push(chunk);
    }
  } catch (error) {
    throw classifyNetworkError(error, url, document.timedOut());
  }
  // A page usually arrives in one read: copying it into a new buffer would only feed the collector.
  const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (!encoding || encoding === 'identity') return raw;
  const cap = { maxOutputLength: maxBytes };
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(raw, cap);
    if (encoding === 'br') return brotliDecompressSync(raw, cap);
    if (encoding === 'deflate') return raw[0] === 0x78 ? inflateSync(raw, cap) : inflateRawSync(raw, cap);
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw new CrawlFailure('unreachable', `${shownUrl(url)} sent a broken ${encoding} body`, true);
  }
  return raw;
}

function flatHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function rememberCookies(
  jar: Map<string, Map<string, string>>,
  host: string,
  setCookie: string | string[] | undefined,
) {
  if (!setCookie) return;
  const cookies = jar.get(host) ?? new Map<string, string>();
  for (const line of Array.isArray(setCookie) ? setCookie : [setCookie]) {
    const pair = line.split(';', 1)[0] ?? '';
    const equals = pair.indexOf('=');
    if (equals > 0) cookies.set(pair.slice(0, equals).trim(), pair.slice(equals + 1).trim());
  }
  jar.set(host, cookies);
}

function withCookies(headers: Record<string, string>, cookies: Map<string, string> | undefined) {
  if (!cookies?.size) return headers;
  const set = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  return { ...headers, cookie: headers.cookie ? `${headers.cookie}; ${set}` : set };
}
