import { createEgressGuard, createGuardedDispatcher, RefusedAddressError } from '@mimamori/egress';
import { Agent, type Dispatcher, request } from 'undici';
import { SIGNATURE_HEADER, signatureHeader } from './signature.ts';

export interface WebhookPoster {
  /** Signs `body` now and POSTs it to `url` through the SSRF guard; never throws. */
  post(url: string, body: string, secret: string): Promise<WebhookAnswer>;
  /** Why `url` cannot take deliveries (not a URL, not a public address, a name that does not resolve), or null. */
  refusal(url: string): Promise<WebhookRefusal | null>;
  close(): Promise<void>;
}

/**
 * Why a URL is refused before anything is sent. `not_public`: the guard refuses its scheme or its
 * address; `unreachable`: its name does not resolve now, which every delivery would hit too. The
 * user fixes these differently (another address, or a typo), so they are told apart.
 */
export interface WebhookRefusal {
  kind: 'not_a_url' | 'not_public' | 'unreachable';
  reason: string;
}

export type WebhookAnswer =
  /** The receiver answered: 2xx is delivered, anything else is tried again later. */
  | { kind: 'answered'; status: number; bodyExcerpt: string }
  /** The URL leads to an address the guard refuses: never tried again. */
  | { kind: 'refused'; reason: string }
  /** No answer (connection, TLS, timeout): tried again later. */
  | { kind: 'unreachable'; reason: string };

export interface WebhookPosterOptions {
  /** `host:port` reached without the address check: tests' local receivers only (WEBHOOK_EGRESS_ALLOW). */
  allow?: readonly string[];
  /**
   * The single-process product's own webhook receiver on loopback (`<origin>/dev/webhooks/in/`),
   * so a new user can try webhooks at all: a URL naming one receiver directly under it passes
   * the guard, nothing else of that origin or of loopback does (ownReceiverUrl). Read at each
   * use, as the product learns its port only once it listens; null or absent elsewhere.
   */
  ownReceiver?: (() => string | null) | undefined;
  timeoutMs?: number;
}

/** A receiver's name in the product's own /dev/webhooks: one plain path segment. */
const RECEIVER_NAME = /^[A-Za-z0-9_-]{1,40}$/;

/**
 * Whether `url` names one receiver of the product's own /dev/webhooks (`prefix` is
 * `<origin>/dev/webhooks/in/`): the same scheme, host and port, the path the prefix and one
 * plain name, no query, fragment or credentials. The URL is read as WHATWG parses it, so
 * `..`, `%2e%2e` and backslashes are already resolved into the path that would be requested.
 */
export function ownReceiverUrl(url: URL, prefix: string | null | undefined): boolean {
  if (!prefix) return false;
  let own: URL;
  try {
    own = new URL(prefix);
  } catch {
    return false;
  }
  if (url.origin !== own.origin || url.username || url.password || url.search || url.hash) return false;
  if (!url.pathname.startsWith(own.pathname)) return false;
  return RECEIVER_NAME.test(url.pathname.slice(own.pathname.length));
}

/** The receiver's answer is kept to this many characters: enough to show, never a whole page. */
const EXCERPT_CHARS = 500;

/**
 * Posts signed deliveries to user-given URLs through the crawler's SSRF guard: every
 * connection's address checked, redirects not followed (a 3xx is an answer, not a hop).
 */
export function createWebhookPoster(options: WebhookPosterOptions = {}): WebhookPoster {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const dispatcher: Dispatcher = createGuardedDispatcher({
    allow: options.allow ?? [],
    connectTimeoutMs: timeoutMs,
  });
  const guard = createEgressGuard({ allow: options.allow ?? [] });
  // Only for the product's own receiver, which is on loopback by definition: no address check,
  // and (as for every post) no redirect followed.
  const ownReceiver = options.ownReceiver ? new Agent({ connect: { timeout: timeoutMs } }) : null;
  const isOwnReceiver = (url: URL) => ownReceiverUrl(url, options.ownReceiver?.());
  return {
    async refusal(url) {
      try {
        const parsed = new URL(url);
        if (isOwnReceiver(parsed)) return null;
        await guard.checkUrl(parsed);
        return null;
      } catch (error) {
        if (error instanceof RefusedAddressError) return { kind: 'not_public', reason: error.message };
        if (error instanceof TypeError) return { kind: 'not_a_url', reason: 'not a URL' };
        return { kind: 'unreachable', reason: error instanceof Error ? error.message : String(error) };
      }
    },
    async post(url, body, secret) {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return { kind: 'refused', reason: 'not a URL' };
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        return { kind: 'refused', reason: `refused ${parsed.protocol} URL` };
      }
      try {
        const answer = await request(parsed, {
          method: 'POST',
          dispatcher: ownReceiver && isOwnReceiver(parsed) ? ownReceiver : dispatcher,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Mimamori-Webhook/1',
            [SIGNATURE_HEADER]: signatureHeader(secret, body, Math.floor(Date.now() / 1000)),
          },
          body,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
        const text = await answer.body.text().catch(() => '');
        return { kind: 'answered', status: answer.statusCode, bodyExcerpt: text.slice(0, EXCERPT_CHARS) };
      } catch (error) {
        const refused = findRefusal(error);
        if (refused) return { kind: 'refused', reason: refused.message };
        return { kind: 'unreachable', reason: error instanceof Error ? error.message : String(error) };
      }
    },
    close: async () => {
      await dispatcher.close();
      await ownReceiver?.close();
    },
  };
}

function findRefusal(error: unknown): RefusedAddressError | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if (current instanceof RefusedAddressError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
