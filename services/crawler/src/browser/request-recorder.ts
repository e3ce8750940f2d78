import { createHash } from 'node:crypto';
import type { BrowserContext, Request, Response, WebSocket } from 'playwright-core';
import { MAX_RECORDED_REQUESTS, type RecordedRequest } from '../domain/revalidation.ts';

/** What decides how a page reads: its documents and frames, code, styles, and the data it fetches. */
const RECORDED = new Set(['document', 'script', 'stylesheet', 'xhr', 'fetch']);
/** Answers that keep coming after the load: no later request can stand for them. */
const STREAMED = new Set(['eventsource', 'websocket']);
/** Request headers that belong to one connection or to the browser's cache, not to the question. */
const DROPPED_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'accept-encoding',
  'if-none-match',
  'if-modified-since',
  'cache-control',
  'pragma',
  'upgrade-insecure-requests',
  'purpose',
  'sec-purpose',
]);
/** A request body larger than this (an upload, not a query) is not asked again. */
const MAX_BODY_CHARS = 8_192;

export interface Recording {
  requests: RecordedRequest[];
  /** Why the page cannot be revalidated, when it cannot. */
  unfit?: string;
}

/**
 * Records, from now until `finish`, every request the check's pages make that their reading
 * depends on. Redirects are recorded as their status and Location, so a document that now
 * redirects elsewhere differs. Failed requests (the guard's refusals, a site down) are recorded
 * as failed: asked again, a request that now succeeds differs.
 */
export function recordRequests(context: BrowserContext): { finish(): Promise<Recording> } {
  const pending: Promise<RecordedRequest | undefined>[] = [];
  let unfit: string | undefined;
  const onFinished = (request: Request) => {
    const kind = request.resourceType();
    if (STREAMED.has(kind)) unfit = `the page streams (${kind})`;
    if (!RECORDED.has(kind)) return;
    pending.push(recorded(request, kind, false));
  };
  const onFailed = (request: Request) => {
    const kind = request.resourceType();
    if (STREAMED.has(kind)) unfit = `the page streams (${kind})`;
    if (!RECORDED.has(kind)) return;
    pending.push(recorded(request, kind, true));
  };
  const onRequest = (request: Request) => {
    if (STREAMED.has(request.resourceType())) unfit = `the page streams (${request.resourceType()})`;
  };
  const onWebSocket = (_socket: WebSocket) => {
    unfit = 'the page opens a WebSocket';
  };
  const pages = new Set(context.pages());
  const watchPage = (page: typeof context.pages extends () => (infer P)[] ? P : never) => {
    pages.add(page);
    page.on('websocket', onWebSocket);
  };
  for (const page of pages) page.on('websocket', onWebSocket);
  context.on('page', watchPage);
  context.on('request', onRequest);
  context.on('requestfinished', onFinished);
  context.on('requestfailed', onFailed);
  return {
    async finish() {
      context.off('page', watchPage);
      context.off('request', onRequest);
      context.off('requestfinished', onFinished);
      context.off('requestfailed', onFailed);
      for (const page of pages) page.off('websocket', onWebSocket);
      const requests = (await Promise.all(pending)).filter((entry) => entry !== undefined);
      if (!unfit && requests.length > MAX_RECORDED_REQUESTS)
        unfit = `the page makes more than ${MAX_RECORDED_REQUESTS} requests`;
      if (!unfit && requests.some((entry) => entry.kind === 'document' && entry.method !== 'GET'))
        unfit = 'the page submits a form';
      if (!unfit && requests.some((entry) => entry.body === undefined && hasBody(entry.method)))
        unfit = 'a request body cannot be asked again';
      return { requests, ...(unfit ? { unfit } : {}) };
    },
  };
}

/** The digest of a request the egress guard refused. */
export const REFUSED = 'refused';

const hasBody = (method: string) => method !== 'GET' && method !== 'HEAD';

async function recorded(
  request: Request,
  kind: string,
  failed: boolean,
): Promise<RecordedRequest | undefined> {
  try {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(await request.allHeaders())) {
      // A proxy's own headers (its credentials) are never kept, nor sent to the site.
      if (!name.startsWith(':') && !name.startsWith('proxy-') && !DROPPED_HEADERS.has(name))
        headers[name] = value;
    }
    const postData = hasBody(request.method()) ? request.postData() : null;
    const body = postData !== null && postData.length <= MAX_BODY_CHARS ? postData : undefined;
    const base = {
      method: request.method(),
      url: request.url(),
      headers,
      kind,
      ...(body !== undefined ? { body } : {}),
    };
    const response = failed ? null : await request.response();
    if (!response) return { ...base, digest: 'failed' };
    const answer = await answerOf(response);
    if (answer.body === null) return { ...base, digest: REFUSED };
    return {
      ...base,
      ...answer.validators,
      digest: answerDigest(answer.status, answer.cookies, answer.body),
    };
  } catch {
    // The page or context went away before the answer was read: nothing to stand for it.
    return { method: request.method(), url: request.url(), headers: {}, kind, digest: 'failed' };
  }
}

async function answerOf(response: Response) {
  const status = response.status();
  const headers = await response.allHeaders();
  // The guard's proxy answers a refused address itself; asked again, the guard refuses it again.
  if (headers['x-refused-address']) return { status, cookies: '', validators: {}, body: null };
  const cookies = setCookies(headers['set-cookie']);
  const validators = {
    ...(headers.etag ? { etag: headers.etag } : {}),
    ...(headers['last-modified'] ? { lastModified: headers['last-modified'] } : {}),
  };
  if (status >= 300 && status < 400) {
    return {
      status,
      cookies,
      validators: {},
      body: Buffer.from(headers.location ?? '') as Uint8Array | null,
    };
  }
  return { status, cookies, validators, body: (await response.body()) as Uint8Array | null };
}

/** The cookies an answer sets, name and value only (their expiry moves with the clock). */
export function setCookies(header: string | string[] | undefined): string {
  const lines = Array.isArray(header) ? header : (header ?? '').split('\n');
  return lines
    .map((line) => line.split(';', 1)[0]?.trim() ?? '')
    .filter(Boolean)
    .join('\n');
}

/** The answer as compared: status, cookies set, body. */
export function answerDigest(status: number, cookies: string, body: Uint8Array): string {
  return createHash('sha256').update(`${status}\n${cookies}\n`).update(body).digest('hex');
}
