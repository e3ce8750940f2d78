import type { StandInStore } from '@mimamori/chat-stand-ins';
import { SIGNATURE_HEADER, verifySignature } from '@mimamori/webhook';
import type { FastifyInstance } from 'fastify';
import { sendApiError } from './api-error.ts';
import { csrfTokenOf, formTokenMatches } from './csrf.ts';
import { fromLoopback } from './discord-stand-in-routes.ts';
import { type ReceivedDelivery, renderWebhookReceiverPage } from './webhook-receiver-page.ts';

export const WEBHOOK_RECEIVER_PATH = '/dev/webhooks';
/** Where the receivers are: `<product>/dev/webhooks/in/<name>` (the SSRF guard's one loopback exception). */
export const WEBHOOK_RECEIVER_PREFIX = `${WEBHOOK_RECEIVER_PATH}/in/`;
/** The name the webhook form suggests. */
export const SUGGESTED_RECEIVER = 'demo';

/** The receiver the webhook form suggests, under the product's own address. */
export function suggestedReceiverUrl(productUrl: string): string {
  return new URL(`${WEBHOOK_RECEIVER_PREFIX}${SUGGESTED_RECEIVER}`, productUrl).toString();
}
/** Its records' platform name in the stand-ins' store. */
const PLATFORM = 'webhooks';
/** A delivery is JSON of a few kilobytes, more with long diffs; a real receiver would take this much. */
const BODY_LIMIT = 5 * 1024 * 1024;
/** The headers a delivery is shown with; the rest say nothing about Mimamori's request. */
const SHOWN_HEADERS = ['content-type', 'user-agent', SIGNATURE_HEADER.toLowerCase()];

interface ReceiverState {
  /** The signing secret the person pasted for each receiver name (as their own server would keep it). */
  secrets: Record<string, string>;
}

/**
 * A webhook receiver to try webhooks with, in the single-process product on loopback only
 * (docs/channels.md#trying-it-locally): the account and the notifier may post to
 * `<product>/dev/webhooks/in/<name>` (and nowhere else on loopback), the receiver keeps each
 * delivery's headers and raw body in the stand-ins' store, and `/dev/webhooks` shows each one
 * with its signature checked by `verifySignature` against the secret the person pasted for that
 * receiver, as their own server would check it. With a pasted secret a delivery that does not
 * verify is answered 400, as a receiver should; without one it is kept and answered 200.
 * Served to loopback peers only.
 */
export function webhookReceiverRoutes(
  app: FastifyInstance,
  deps: {
    store: StandInStore;
    /** The product's own address (the one the SSRF guard lets through); the request's origin until known. */
    productUrl: () => string;
  },
): void {
  const { store } = deps;
  const secrets = async () => (await store.readState<ReceiverState>(PLATFORM, { secrets: {} })).secrets;

  app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      if (!fromLoopback(request)) return sendApiError(reply, 404, 'not_found');
    });
    // The signature is over the bytes as sent: the body is kept as text, never parsed first.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_r, body, done) =>
      done(null, body),
    );

    scope.post<{ Params: { name: string }; Body: string }>(
      `${WEBHOOK_RECEIVER_PREFIX}:name`,
      // Mimamori's own services post here as to any receiver, without the SPA's CSRF token; only
      // loopback callers are let in (above), and a forged post is shown as not verifying.
      { bodyLimit: BODY_LIMIT, config: { otherSiteMayPost: true }, schema: { hide: true } },
      async (request, reply) => {
        const { name } = request.params;
        if (!/^[A-Za-z0-9_-]{1,40}$/.test(name)) return sendApiError(reply, 404, 'not_found');
        const body = typeof request.body === 'string' ? request.body : '';
        const at = new Date();
        await store.add(PLATFORM, {
          at: at.toISOString(),
          chat: name,
          body: {
            headers: Object.fromEntries(
              SHOWN_HEADERS.map((header) => [header, String(request.headers[header] ?? '')]),
            ),
            body,
          },
          files: [],
        });
        const secret = (await secrets())[name];
        const signature = String(request.headers[SIGNATURE_HEADER.toLowerCase()] ?? '');
        if (secret && !verifySignature(secret, signature, body, { nowSeconds: seconds(at) }).ok) {
          return reply.code(400).send({ error: 'signature does not verify' });
        }
        return reply.send({ received: true });
      },
    );

    scope.post<{ Body: string }>(
      `${WEBHOOK_RECEIVER_PATH}/secret`,
      // A plain HTML form: its CSRF token comes in a field, checked against the cookie below.
      { config: { otherSiteMayPost: true }, schema: { hide: true } },
      async (request, reply) => {
        const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
        if (!formTokenMatches(request, form.get('csrf'))) return sendApiError(reply, 403, 'csrf_failed');
        const name = form.get('name')?.trim() ?? '';
        const secret = form.get('secret')?.trim() ?? '';
        if (!/^[A-Za-z0-9_-]{1,40}$/.test(name)) return sendApiError(reply, 400, 'bad_request');
        const state = { secrets: { ...(await secrets()) } };
        if (secret) state.secrets[name] = secret;
        else delete state.secrets[name];
        await store.writeState(PLATFORM, state);
        return reply.redirect(WEBHOOK_RECEIVER_PATH, 303);
      },
    );

    scope.get(WEBHOOK_RECEIVER_PATH, { schema: { hide: true } }, async (request, reply) => {
      const known = await secrets();
      const deliveries: ReceivedDelivery[] = (await store.list(PLATFORM)).map((record) => {
        const { headers, body } = record.body as { headers: Record<string, string>; body: string };
        const secret = known[record.chat];
        const signature = headers[SIGNATURE_HEADER.toLowerCase()] ?? '';
        return {
          id: record.id,
          at: record.at,
          name: record.chat,
          headers,
          body,
          // Checked as the receiver would have at the time it came: a later look does not make it stale.
          check: secret
            ? verifySignature(secret, signature, body, { nowSeconds: seconds(new Date(record.at)) })
            : null,
        };
      });
      const origin = new URL(deps.productUrl() || `${request.protocol}://${request.host}`).origin;
      return reply
        .type('text/html; charset=utf-8')
        .header(
          'content-security-policy',
          "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
        )
        .header('cache-control', 'no-store')
        .send(
          renderWebhookReceiverPage({
            receiverUrl: (name) => `${origin}${WEBHOOK_RECEIVER_PREFIX}${name}`,
            suggested: SUGGESTED_RECEIVER,
            names: [
              ...new Set([SUGGESTED_RECEIVER, ...Object.keys(known), ...deliveries.map((d) => d.name)]),
            ],
            withSecret: new Set(Object.keys(known)),
            deliveries,
            csrf: csrfTokenOf(request, reply),
            basePath: WEBHOOK_RECEIVER_PATH,
          }),
        );
    });
  });
}

function seconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}
