import { createEgressGuard, createGuardedDispatcher, RefusedAddressError } from '@mimamori/egress';
import { type Dispatcher, request } from 'undici';
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
  timeoutMs?: number;
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
  return {
    async refusal(url) {
      try {
        await guard.checkUrl(new URL(url));
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
          dispatcher,
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
    close: () => dispatcher.close(),
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
