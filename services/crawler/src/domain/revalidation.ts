import type { AreaContent } from './page-fetcher.ts';

/**
 * Revalidate before rendering (ADR 0031). A full browser check records what the page asked the
 * network for; the next checks ask the same again over plain HTTP and render only when an answer
 * differs, on every Nth check, after a time limit, or when the page is not known to read its
 * areas from its answers alone. The state travels sealed with the schedule, as the session does
 * (ADR 0016).
 */

/** One answer the page's reading depended on: the request as sent, and a digest of the answer. */
export interface RecordedRequest {
  method: string;
  url: string;
  /** The request headers that shape the answer (cookies, accept, content type, custom ones). */
  headers: Record<string, string>;
  /** The request's body (GraphQL over POST); absent for GET. */
  body?: string;
  /** document, script, stylesheet, xhr or fetch: documents and scripts decide how a page reads. */
  kind: string;
  /** Validators for a conditional request. */
  etag?: string;
  lastModified?: string;
  /** sha256 of the status, the cookies set and the body; `failed` for a request that never got one. */
  digest: string;
}

export interface RevalidationState {
  v: 1;
  /** The settings the recording was made for: a check with other settings renders. */
  settings: string;
  requests: RecordedRequest[];
  /** What the full render read, given back unchanged when nothing it depended on changed. */
  result: { finalUrl: string; status: number; areas: AreaContent[]; areasDigest: string };
  /** When the last full render ran (epoch ms). */
  renderedAt: number;
  /**
   * Renders with the clock moved and the random numbers pushed low and high read the same: the
   * areas come from the answers, not from the clock or chance.
   */
  verified: boolean;
  /** Its areas changed while its answers did not: this page never takes the shortcut. */
  volatile: boolean;
  /** Why the shortcut is not taken for this page (a WebSocket, a form's POST, too many requests). */
  unfit?: string;
}

export interface RevalidationPolicy {
  /**
   * One check in this many renders in full whatever the answers, drawn at random: a count would
   * change the kept state on every check, and an unchanged check is to write nothing new. 0: none
   * (a test that counts what unchanged checks write).
   */
  renderEvery: number;
  /** And a render at least this often (wall-clock, product time). */
  maxAgeMs: number;
}

export const DEFAULT_REVALIDATION_POLICY: RevalidationPolicy = { renderEvery: 30, maxAgeMs: 60 * 60_000 };

/** Recorded requests per page at most; a page asking for more is rendered every time. */
export const MAX_RECORDED_REQUESTS = 60;
/** The largest kept state: it travels in every check of the site, sealed. */
export const MAX_REVALIDATION_STATE_BYTES = 64 * 1024;

/** Whether this check may be answered by asking the page's requests again instead of rendering. */
export function mayRevalidate(
  state: RevalidationState | undefined,
  settings: string,
  now: number,
  policy: RevalidationPolicy,
  /** A number in [0, 1) drawn for this check. */
  draw: number,
): state is RevalidationState {
  if (state?.v !== 1) return false;
  if (state.settings !== settings || !state.verified || state.volatile || state.unfit) return false;
  if (policy.renderEvery > 0 && draw * policy.renderEvery < 1) return false;
  return now - state.renderedAt < policy.maxAgeMs && now >= state.renderedAt;
}

/**
 * The same answers in both recordings, matched by method, path and request body (a cache-busting
 * query string differs on every render) in the order asked.
 */
export function sameAnswers(a: readonly RecordedRequest[], b: readonly RecordedRequest[]): boolean {
  if (a.length !== b.length) return false;
  const keys = (list: readonly RecordedRequest[]) => list.map(answerKey).sort();
  const left = keys(a);
  const right = keys(b);
  return left.every((key, index) => key === right[index]);
}

/** Whether the code that reads the page (documents, scripts, styles) is the same in both. */
export function sameCode(a: readonly RecordedRequest[], b: readonly RecordedRequest[]): boolean {
  const code = (list: readonly RecordedRequest[]) =>
    list.filter((request) => request.kind !== 'xhr' && request.kind !== 'fetch');
  return sameAnswers(code(a), code(b));
}

function answerKey(request: RecordedRequest): string {
  const url = new URL(request.url);
  return JSON.stringify([
    request.method,
    request.kind,
    url.origin + url.pathname,
    request.body ?? '',
    request.digest,
  ]);
}

/**
 * The state after a full render: a page whose areas changed while every answer stayed the same
 * is driven by something else (the clock, chance) and loses the shortcut for good; code that
 * changed must be verified again.
 */
export function afterRender(
  previous: RevalidationState | undefined,
  next: Omit<RevalidationState, 'verified' | 'volatile'>,
): RevalidationState {
  const comparable = previous?.v === 1 && previous.settings === next.settings;
  const volatile =
    comparable &&
    (previous.volatile ||
      (sameAnswers(previous.requests, next.requests) &&
        previous.result.areasDigest !== next.result.areasDigest));
  const verified = comparable && !volatile && previous.verified && sameCode(previous.requests, next.requests);
  return { ...next, verified, volatile };
}

/**
 * Whether a render only confirmed the kept state: the same settings, answers, reading and verdict,
 * while the state is younger than half the time limit. Such a render (one in `renderEvery` drawn
 * at random) leaves the state as it is, so an unchanged check writes nothing new (ADR 0032); an
 * older state takes the render's time, so the limit still counts from a render.
 */
export function confirmsKept(
  kept: RevalidationState | undefined,
  next: RevalidationState,
  policy: RevalidationPolicy,
): boolean {
  if (kept?.v !== 1) return false;
  const age = next.renderedAt - kept.renderedAt;
  return (
    age >= 0 &&
    age < policy.maxAgeMs / 2 &&
    kept.settings === next.settings &&
    kept.verified === next.verified &&
    kept.volatile === next.volatile &&
    kept.unfit === next.unfit &&
    kept.result.finalUrl === next.result.finalUrl &&
    kept.result.status === next.result.status &&
    kept.result.areasDigest === next.result.areasDigest &&
    sameAnswers(kept.requests, next.requests)
  );
}

/**
 * Of the state a check carries and the one this crawler remembers for the site, the one from the
 * later render. A check that waited in the queue carries what was kept when it was dispatched,
 * which may be older than a render finished since, or nothing for a new site's second check.
 */
export function newerState(
  carried: RevalidationState | undefined,
  remembered: RevalidationState | undefined,
): RevalidationState | undefined {
  if (!remembered) return carried;
  if (!carried) return remembered;
  return remembered.renderedAt > carried.renderedAt ? remembered : carried;
}

export function parseRevalidationState(text: string | undefined): RevalidationState | undefined {
  if (!text) return undefined;
  try {
    const state = JSON.parse(text) as RevalidationState;
    return state && state.v === 1 && Array.isArray(state.requests) ? state : undefined;
  } catch {
    return undefined;
  }
}

/** The state as kept, or nothing when it would pass the cap. */
export function keptRevalidationState(state: RevalidationState): string | undefined {
  const text = JSON.stringify(state);
  return Buffer.byteLength(text) <= MAX_REVALIDATION_STATE_BYTES ? text : undefined;
}
