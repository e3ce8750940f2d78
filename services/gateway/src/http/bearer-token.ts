import { createHash } from 'node:crypto';
import type { accountV1 } from '@mimamori/contracts';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendAccountFailure } from './account-failure.ts';
import type { Allowance } from './allowance.ts';
import { sendApiError } from './api-error.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

/** docs/api.md: what a token needs for a method. GET reads; every other method changes something. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const BEARER = /^Bearer +([\x21-\x7e]+) *$/i;
/** An API token's secret: its prefix and 43 characters (the account service's isApiTokenShaped). */
const API_TOKEN = /^mmr_[\w-]{43}$/;

const byBearer = new WeakSet<FastifyRequest>();

/** True once the request's bearer token was let through: it needs no CSRF header (csrf.ts). */
export function authorizedByBearer(request: FastifyRequest): boolean {
  return byBearer.has(request);
}

/**
 * `Authorization: Bearer <token>` on every /api route (docs/api.md). A request carrying one is
 * judged by it alone: the account service says whether the token is live and has the scope the
 * method needs (401 unauthenticated, 403 insufficient_scope), each token has its own allowance
 * (429 rate_limited), and the token then stands in for the session cookie, which is ignored, so
 * each route resolves its user as it always has. A cookie cannot carry a token: it would bypass
 * the scope check, so such a cookie is dropped. Registered before the CSRF check, which a bearer
 * request does not need: another site's page cannot make a browser send this header.
 */
export function bearerAuthentication(
  app: FastifyInstance,
  deps: { account: accountV1.AccountServiceClient; allowance: Allowance },
) {
  app.addHook('onRequest', async (request, reply) => {
    if (API_TOKEN.test(request.cookies[SESSION_COOKIE] ?? '')) delete request.cookies[SESSION_COOKIE];
    const header = request.headers.authorization;
    // Decided on the matched route, whatever spelling of its path was sent.
    if (header === undefined || !request.routeOptions.url?.startsWith('/api/')) return;
    const token = BEARER.exec(header)?.[1];
    if (!token) {
      // Another scheme (Basic) is not ours to judge; a malformed Bearer is a bad credential.
      if (/^Bearer\b/i.test(header)) return sendApiError(reply, 401, 'unauthenticated');
      return;
    }
    // Counted before the account service is asked, so a flood of made-up tokens is slowed too.
    const key = createHash('sha256').update(token).digest('base64url');
    if (!deps.allowance.take(key)) {
      reply.header('retry-after', String(Math.ceil(1 / deps.allowance.perSecond)));
      return sendApiError(reply, 429, 'rate_limited');
    }
    try {
      await unary(deps.account, 'authorizeApiToken', {
        token,
        scope: READ_METHODS.has(request.method) ? 'read' : 'write',
      });
    } catch (error) {
      return sendAccountFailure(reply, error);
    }
    request.cookies[SESSION_COOKIE] = token;
    byBearer.add(request);
  });
}
