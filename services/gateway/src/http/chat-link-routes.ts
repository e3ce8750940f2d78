import { status as grpcStatus } from '@grpc/grpc-js';
import {
  type ChatAdapter,
  type ChatPlatform,
  type ChatSettingsSource,
  type InboundEvent,
  isChatPlatform,
  readChatSettings,
} from '@mimamori/chat';
import type { accountV1, chatLinkV1, targetV1 } from '@mimamori/contracts';
import {
  chatLinkDeleted,
  chatLinkFieldsBody,
  chatLinkIdBody,
  chatLinkList,
  chatLinkMade,
  chatLinkRefusals,
  chatLinkStartBody,
  chatLinkStarted,
  chatLinkTestResult,
  redirect,
} from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendAccountFailure } from './account-failure.ts';
import { answer } from './answer.ts';
import { sendApiError } from './api-error.ts';
import { SESSION_COOKIE } from './session-cookie.ts';
import { ownsSite } from './webhook-routes.ts';

const { signedOut, csrf } = chatLinkRefusals;
const security = [{ session: [] }];
/** Inbound callbacks are small JSON: LINE's and Telegram's events, Slack's. */
const INBOUND_LIMIT = 1024 * 1024;

export interface ChatLinkRouteDeps {
  account: accountV1.AccountServiceClient;
  chatLinks: chatLinkV1.ChatLinkServiceClient;
  target?: targetV1.TargetServiceClient | undefined;
  /** The platforms, for their inbound callbacks (LINE, Telegram, Slack). */
  adapters: Record<ChatPlatform, ChatAdapter | undefined>;
  settings: ChatSettingsSource;
  /** The product's address in the browser, for OAuth redirect URIs; the request's host when unset. */
  publicUrl?: string | undefined;
}

/**
 * The account's chat links (docs/product.md#chat-links): list, link by pasted fields, start a code
 * or OAuth link, test, delete; the OAuth return; and the platforms' inbound callbacks, verified by
 * the platform's signature over the raw body and exempt from CSRF by declaration, as Stripe's is.
 */
export function chatLinkRoutes(app: FastifyInstance, deps: ChatLinkRouteDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { chatLinks } = deps;
  const session = (request: FastifyRequest) => request.cookies[SESSION_COOKIE] ?? '';

  api.get(
    '/api/v2/chat-links',
    {
      schema: {
        summary: 'The account’s chat links, account-wide and per site, and the platforms it can link',
        security,
        response: { 200: chatLinkList, 401: signedOut },
      },
    },
    (request, reply) =>
      chatWork(request, reply, async () => {
        const listed = await unary(chatLinks, 'listChatLinks', { sessionToken: session(request) });
        return reply.send({
          links: listed.links.filter(knownPlatform).map(toChatLinkJson),
          platforms: listed.platforms.flatMap((offer) =>
            isChatPlatform(offer.platform) && isLinking(offer.linking)
              ? [{ platform: offer.platform, linking: offer.linking, fields: offer.fields }]
              : [],
          ),
          max_links: listed.maxLinks,
        });
      }),
  );

  api.post(
    '/api/v2/chat-links',
    {
      schema: {
        summary:
          'Link a chat by what the platform gave the user (Teams’ URL; Chatwork’s token and room), checked with the platform',
        security,
        body: chatLinkFieldsBody,
        response: {
          201: chatLinkMade,
          400: chatLinkRefusals.link,
          401: signedOut,
          403: csrf,
          404: chatLinkRefusals.notFound,
        },
      },
    },
    (request, reply) =>
      chatWork(request, reply, async () => {
        const targetId = request.body?.target_id ?? '';
        if (targetId && !(await ownsSite(deps, request, reply, targetId))) return;
        const made = await unary(chatLinks, 'linkChatByFields', {
          sessionToken: session(request),
          platform: request.body?.platform ?? '',
          targetId,
          fields: request.body?.fields ?? {},
          relinkId: request.body?.relink_id ?? '',
        });
        if (!made.link || !knownPlatform(made.link)) throw new Error('the account service answered no link');
        return reply.code(201).send({ link: toChatLinkJson(made.link) });
      }),
  );

  api.post(
    '/api/v2/chat-links/start',
    {
      schema: {
        summary: 'Begin a code link (a one-time code and its deep link) or an OAuth link (the consent page)',
        security,
        body: chatLinkStartBody,
        response: {
          200: chatLinkStarted,
          400: chatLinkRefusals.link,
          401: signedOut,
          403: csrf,
          404: chatLinkRefusals.notFound,
        },
      },
    },
    (request, reply) =>
      chatWork(request, reply, async () => {
        const targetId = request.body?.target_id ?? '';
        if (targetId && !(await ownsSite(deps, request, reply, targetId))) return;
        const platform = request.body?.platform ?? '';
        const started = await unary(chatLinks, 'startChatLink', {
          sessionToken: session(request),
          platform,
          targetId,
          redirectUri: isChatPlatform(platform) ? callbackUrl(request, platform, deps.publicUrl) : '',
          relinkId: request.body?.relink_id ?? '',
        });
        return reply.send({
          code: started.code,
          start_url: started.startUrl,
          authorize_url: started.authorizeUrl,
          expires_at: (started.expiresAt ?? new Date(0)).toISOString(),
        });
      }),
  );

  api.post(
    '/api/v2/chat-links/test',
    {
      schema: {
        summary: 'Send the link’s test message now; a dead answer marks the link broken',
        security,
        body: chatLinkIdBody,
        response: {
          200: chatLinkTestResult,
          400: chatLinkRefusals.link,
          401: signedOut,
          403: csrf,
          404: chatLinkRefusals.notFound,
        },
      },
    },
    (request, reply) =>
      chatWork(request, reply, async () => {
        const tested = await unary(chatLinks, 'testChatLink', {
          sessionToken: session(request),
          linkId: request.body?.id ?? '',
        });
        const outcome = (['sent', 'retry', 'refused', 'dead'] as const).find(
          (kind) => kind === tested.outcome,
        );
        return reply.send({ outcome: outcome ?? 'refused', reason: tested.reason });
      }),
  );

  api.post(
    '/api/v2/chat-links/delete',
    {
      schema: {
        summary: 'Remove a chat link; messages already on their way to it may still arrive',
        security,
        body: chatLinkIdBody,
        response: { 200: chatLinkDeleted, 401: signedOut, 403: csrf, 404: chatLinkRefusals.notFound },
      },
    },
    (request, reply) =>
      chatWork(request, reply, async () => {
        await unary(chatLinks, 'deleteChatLink', {
          sessionToken: session(request),
          linkId: request.body?.id ?? '',
        });
        return reply.send({ status: 'deleted' as const });
      }),
  );

  api.get(
    '/chat/oauth/:platform/callback',
    {
      schema: {
        summary: 'The platform’s OAuth return: the state must be the signed-in user’s own unexpired code',
        params: z.object({ platform: z.string() }),
        querystring: z.object({
          code: z.string().optional(),
          state: z.string().optional(),
          error: z.string().optional(),
        }),
        response: {
          302: redirect(
            "To /account?chat_linked=<platform> (a site's own link: /target2?id=<site>&chat_linked=<platform>), or /account?chat_link_error=<code>",
          ),
        },
      },
    },
    async (request, reply) => {
      const { platform } = request.params;
      const back = (query: string) => reply.redirect(`/account?${query}`, 302);
      const { code, state } = request.query;
      if (!isChatPlatform(platform) || !code || !state || request.query.error) {
        return back('chat_link_error=chat_link_refused');
      }
      if (!session(request)) return back('chat_link_error=unauthenticated');
      try {
        const completed = await unary(chatLinks, 'completeChatLinkByOauth', {
          sessionToken: session(request),
          platform,
          state,
          code,
          redirectUri: callbackUrl(request, platform, deps.publicUrl),
        });
        // A site's own link was started on the site's page: the person goes back there.
        const targetId = completed.link?.targetId ?? '';
        if (targetId) {
          return reply.redirect(
            `/target2?${new URLSearchParams({ id: targetId, chat_linked: platform })}`,
            302,
          );
        }
        return back(`chat_linked=${platform}`);
      } catch (error) {
        const details = (error as { details?: string }).details ?? '';
        const reason = /^[a-z_]{3,60}$/.test(details)
          ? details
          : details.startsWith('chat_field_invalid')
            ? 'chat_field_invalid'
            : 'chat_link_refused';
        request.log.warn({ platform, reason }, 'chat OAuth link not completed');
        return back(`chat_link_error=${reason}`);
      }
    },
  );

  // The platforms post here: no session and no CSRF token; the platform's signature over the raw
  // body, checked by its adapter, authorises it.
  app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: INBOUND_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    raw.post<{ Params: { platform: string } }>(
      '/hooks/:platform',
      { config: { otherSiteMayPost: true }, bodyLimit: INBOUND_LIMIT },
      async (request, reply) => {
        const { platform } = request.params;
        const settings = readChatSettings(deps.settings);
        const adapter = isChatPlatform(platform) ? deps.adapters[platform] : undefined;
        if (!adapter?.inbound || !adapter.enabled(settings)) return sendApiError(reply, 404, 'not_found');
        const received = await adapter.inbound(
          {
            headers: Object.fromEntries(
              Object.entries(request.headers).map(([name, value]) => [
                name,
                Array.isArray(value) ? value.join(',') : value,
              ]),
            ),
            rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
            nowSeconds: Math.floor(Date.now() / 1_000),
          },
          settings,
        );
        if (received.kind === 'rejected') {
          request.log.warn({ platform, reason: received.reason }, 'inbound chat callback rejected');
          return sendApiError(reply, 401, 'signature_invalid');
        }
        for (const event of received.events) {
          const linked = await applyInbound(chatLinks, adapter.platform, event);
          await received.reply?.(event, linked).catch((error: unknown) => {
            request.log.warn({ err: error, platform }, 'reply to the chat not sent');
          });
        }
        // Some platforms want an answer in the body (Slack's url_verification challenge).
        if (received.response) return reply.type(received.response.contentType).send(received.response.body);
        return reply.send({ ok: true });
      },
    );
  });
}

/** What one verified inbound event does: link a code, break or move the links it names. */
async function applyInbound(
  chatLinks: chatLinkV1.ChatLinkServiceClient,
  platform: ChatPlatform,
  event: InboundEvent,
): Promise<boolean> {
  switch (event.kind) {
    case 'link':
      return (
        await unary(chatLinks, 'completeChatLinkByCode', {
          platform,
          code: event.code,
          credentials: { ...event.credentials },
          label: event.label,
        })
      ).linked;
    case 'dead':
      await unary(chatLinks, 'markChatLinkDead', {
        userId: '',
        linkId: '',
        platform,
        match: { ...event.match },
        reason: event.reason,
      });
      return false;
    case 'moved':
      await unary(chatLinks, 'moveChatLink', {
        platform,
        match: { ...event.match },
        credentials: { ...event.credentials },
      });
      return true;
  }
}

const knownPlatform = <Link extends { platform: string }>(
  link: Link,
): link is Link & { platform: ChatPlatform } => isChatPlatform(link.platform);

const isLinking = (kind: string): kind is 'fields' | 'code' | 'oauth' =>
  kind === 'fields' || kind === 'code' || kind === 'oauth';

function callbackUrl(request: FastifyRequest, platform: ChatPlatform, publicUrl: string | undefined): string {
  return new URL(
    `/chat/oauth/${platform}/callback`,
    publicUrl ?? `${request.protocol}://${request.host}`,
  ).toString();
}

/**
 * The account service's refusals as the other account routes answer them; a pasted value the
 * platform refused (`chat_field_invalid:<field>:<reason>`) names its field and the reason.
 */
function chatWork(request: FastifyRequest, reply: FastifyReply, work: () => Promise<unknown>) {
  return answer(request, reply, `${request.method} ${request.routeOptions.url}`, work, (failed, error) => {
    const { code, details } = error as { code?: number; details?: string };
    const refused =
      code === grpcStatus.INVALID_ARGUMENT ? /^chat_field_invalid:([^:]*):(.*)$/.exec(details ?? '') : null;
    if (!refused) return sendAccountFailure(failed, error);
    const [, field, reason] = refused;
    if (reason === 'platform_unreachable') return sendApiError(failed, 400, 'chat_platform_unreachable');
    return failed
      .code(400)
      .type('application/json')
      .send({
        error: {
          code: 'chat_field_invalid',
          // The platform's reason has its own message where the SPA knows it (errors.chatwork_token_invalid).
          message_key: /^[a-z_]{3,60}$/.test(reason ?? '') ? `errors.${reason}` : 'errors.chat_field_invalid',
          ...(field ? { field } : {}),
          ...(reason ? { reason } : {}),
        },
      });
  });
}

/** A link as the API answers it; the account service stores only the platforms it knows. */
function toChatLinkJson(link: chatLinkV1.ChatLink & { platform: ChatPlatform }) {
  return {
    id: link.id,
    platform: link.platform,
    target_id: link.targetId,
    label: link.label,
    status: link.status === 'broken' ? ('broken' as const) : ('linked' as const),
    broken_reason: link.brokenReason,
    broken_at: link.brokenAt ? link.brokenAt.toISOString() : null,
    created_at: (link.createdAt ?? new Date(0)).toISOString(),
  };
}
