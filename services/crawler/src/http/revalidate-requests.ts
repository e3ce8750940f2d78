import { type Dispatcher, request as undiciRequest } from 'undici';
import { answerDigest, REFUSED, setCookies } from '../browser/request-recorder.ts';
import type { RecordedRequest } from '../domain/revalidation.ts';

/** Requests asked again at once per check; a page's requests are small and few. */
const CONCURRENCY = 6;
/** The most a revalidated answer may be; a larger one renders. */
const MAX_ANSWER_BYTES = 5 * 1_048_576;

/**
 * Asks each recorded request again over HTTP through the egress guard's dispatcher, with the
 * recorded validators as a conditional request, and tells whether every answer is the same.
 * Stops at the first difference: the page is rendered then anyway.
 */
export async function sameAnswersNow(
  requests: readonly RecordedRequest[],
  dispatcher: Dispatcher,
  signal: AbortSignal,
): Promise<{ same: true } | { same: false; differs: string }> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  signal.addEventListener('abort', stop, { once: true });
  let differs: string | undefined;
  let next = 0;
  const worker = async () => {
    while (differs === undefined && next < requests.length) {
      const recorded = requests[next++] as RecordedRequest;
      const digest = await askAgain(recorded, dispatcher, controller.signal);
      if (digest !== recorded.digest && digest !== 'not-modified' && differs === undefined) {
        differs = recorded.url;
        controller.abort();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, requests.length) }, worker));
  } finally {
    signal.removeEventListener('abort', stop);
  }
  if (signal.aborted && differs === undefined) differs = 'the check was cancelled';
  return differs === undefined ? { same: true } : { same: false, differs };
}

async function askAgain(
  recorded: RecordedRequest,
  dispatcher: Dispatcher,
  signal: AbortSignal,
): Promise<string> {
  const headers: Record<string, string> = { ...recorded.headers };
  if (recorded.etag) headers['if-none-match'] = recorded.etag;
  if (recorded.lastModified) headers['if-modified-since'] = recorded.lastModified;
  try {
    const response = await undiciRequest(recorded.url, {
      dispatcher,
      method: recorded.method as Dispatcher.HttpMethod,
      headers,
      ...(recorded.body !== undefined ? { body: recorded.body } : {}),
      signal,
    });
    if (response.statusCode === 304 && (recorded.etag || recorded.lastModified)) {
      await response.body.dump();
      return 'not-modified';
    }
    const cookies = setCookies(response.headers['set-cookie']);
    if (response.statusCode >= 300 && response.statusCode < 400) {
      await response.body.dump();
      const location = response.headers.location;
      return answerDigest(response.statusCode, cookies, Buffer.from(String(location ?? '')));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_ANSWER_BYTES) {
        response.body.destroy();
        return 'too-large';
      }
      chunks.push(chunk as Buffer);
    }
    return answerDigest(response.statusCode, cookies, Buffer.concat(chunks));
  } catch (error) {
    // Asked again through the same guard, a refused address is refused again.
    return error instanceof Error && error.name === 'RefusedAddressError' ? REFUSED : 'failed';
  }
}
