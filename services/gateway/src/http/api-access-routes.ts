import type { accountV1 } from '@mimamori/contracts';
import {
  apiAccessRefusals,
  apiTokenCreateBody,
  apiTokenIdBody,
  apiTokenList,
  apiTokenRevoked,
  apiTokenWithSecret,
  feedUrls,
} from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountWork } from './auth-routes.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

const { signedOut, session } = apiAccessRefusals;
const security = [{ session: [] }];

/**
 * The account page's API tokens and feed URLs (docs/api.md). Managed with the browser session
 * only: the account service refuses a token standing in for it (403 session_required).
 */
export function apiAccessRoutes(
  app: FastifyInstance,
  deps: { account: accountV1.AccountServiceClient; publicUrl?: string | undefined },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { account } = deps;
  const sessionToken = (request: FastifyRequest) => request.cookies[SESSION_COOKIE] ?? '';

  api.get(
    '/api/tokens',
    {
      schema: {
        summary: 'The account’s API tokens with when each was last used; never their secrets',
        security,
        response: { 200: apiTokenList, 401: signedOut, 403: session },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(account, 'listApiTokens', { sessionToken: sessionToken(request) });
        return reply.send({ tokens: answer.tokens.map(apiTokenJson) });
      }),
  );

  api.post(
    '/api/tokens',
    {
      schema: {
        summary: 'Make an API token with a name, scopes and an expiry; answers its secret this once',
        security,
        body: apiTokenCreateBody,
        response: { 201: apiTokenWithSecret, 400: apiAccessRefusals.create, 401: signedOut, 403: session },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const made = await unary(account, 'createApiToken', {
          sessionToken: sessionToken(request),
          name: request.body?.name ?? '',
          scopes: request.body?.scopes ?? [],
          expiresInDays: request.body?.expires_in_days ?? 0,
        });
        if (!made.token) throw new Error('the account service answered no token');
        return reply.code(201).send({ token: apiTokenJson(made.token), secret: made.secret });
      }),
  );

  api.post(
    '/api/tokens/revoke',
    {
      schema: {
        summary: 'Revoke an API token: every request with it is refused from now on',
        security,
        body: apiTokenIdBody,
        response: { 200: apiTokenRevoked, 401: signedOut, 403: session, 404: apiAccessRefusals.notFound },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        await unary(account, 'revokeApiToken', {
          sessionToken: sessionToken(request),
          tokenId: request.body?.id ?? '',
        });
        return reply.send({ status: 'revoked' as const });
      }),
  );

  api.get(
    '/api/feeds',
    {
      schema: {
        summary: 'The account’s secret Atom and RSS feed URLs (made on first ask)',
        security,
        response: { 200: feedUrls, 401: signedOut, 403: session },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(account, 'getFeedToken', { sessionToken: sessionToken(request) });
        return reply.send(feedUrlsJson(request, deps.publicUrl, answer.feedToken));
      }),
  );

  api.post(
    '/api/feeds/rotate',
    {
      schema: {
        summary: 'New feed URLs; the old ones answer 404 from now on',
        security,
        response: { 200: feedUrls, 401: signedOut, 403: session },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(account, 'rotateFeedToken', { sessionToken: sessionToken(request) });
        return reply.send(feedUrlsJson(request, deps.publicUrl, answer.feedToken));
      }),
  );
}

function apiTokenJson(token: accountV1.ApiToken) {
  return {
    id: token.id,
    name: token.name,
    scopes: token.scopes.filter((scope): scope is 'read' | 'write' => scope === 'read' || scope === 'write'),
    created_at: (token.createdAt ?? new Date(0)).toISOString(),
    expires_at: (token.expiresAt ?? new Date(0)).toISOString(),
    last_used_at: token.lastUsedAt ? token.lastUsedAt.toISOString() : null,
  };
}

/** Absolute, so they can be pasted into a feed reader as they are. */
function feedUrlsJson(request: FastifyRequest, publicUrl: string | undefined, token: string) {
  const base = publicUrl ?? `${request.protocol}://${request.host}`;
  const at = (path: string) => new URL(`/feeds/${token}/${path}`, base).toString();
  return {
    atom_url: at('atom.xml'),
    rss_url: at('rss.xml'),
    site_atom_url: at('sites/{target_id}/atom.xml').replace('%7Btarget_id%7D', '{target_id}'),
  };
}
