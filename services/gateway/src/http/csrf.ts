import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendApiError } from './api-error.ts';
import { authorizedByBearer } from './bearer-token.ts';

export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Double-submit protection: every visitor gets a random token in a cookie the SPA can read
 * (and another site cannot); a state-changing request must echo it in a header.
 *
 * Every state-changing request is checked, whatever its path: a test of the raw path (`/api/…`)
 * let `/%61pi/…` through, which the router decodes to the same route. The only routes exempt
 * are those that declare `config: { otherSiteMayPost: true }` because a program, not a browser,
 * posts to them (the local Discord stand-in), and which check their caller in their own way, and
 * requests authorised by an API token (docs/api.md). Cookie clients send the csrf_token cookie's
 * value in the X-CSRF-Token header.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes posts from programs other than the SPA and checks them itself (see csrfProtection). */
    otherSiteMayPost?: boolean;
  }
}

export function csrfProtection(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    const cookieToken = request.cookies[CSRF_COOKIE];
    csrfTokenOf(request, reply);
    if (SAFE_METHODS.has(request.method)) return;
    // Decided on the matched route, whatever spelling of its path was sent.
    if (request.routeOptions.config.otherSiteMayPost === true) return;
    // A request let through by its bearer token (bearer-token.ts): a browser never adds that
    // header on another site's behalf, so there is no forgery to guard against.
    if (authorizedByBearer(request)) return;
    const headerToken = request.headers[CSRF_HEADER];
    if (typeof headerToken !== 'string' || !cookieToken || !sameToken(headerToken, cookieToken)) {
      return sendApiError(reply, 403, 'csrf_failed');
    }
  });
}

/**
 * The visitor's CSRF token: the cookie's, or a new one set on the reply (once per request). A
 * server-rendered page (/dev/webhooks) puts it in its form, whose route then checks it with
 * `formTokenMatches` instead of the header.
 */
export function csrfTokenOf(request: FastifyRequest, reply: FastifyReply): string {
  const kept = request.cookies[CSRF_COOKIE];
  if (kept) return kept;
  const fresh = randomBytes(24).toString('base64url');
  reply.setCookie(CSRF_COOKIE, fresh, { path: '/', sameSite: 'strict', secure: true, httpOnly: false });
  request.cookies[CSRF_COOKIE] = fresh;
  return fresh;
}

/** Whether a form's token is the visitor's cookie token (double submit through a form field). */
export function formTokenMatches(request: FastifyRequest, formToken: unknown): boolean {
  const cookieToken = request.cookies[CSRF_COOKIE];
  return typeof formToken === 'string' && !!cookieToken && sameToken(formToken, cookieToken);
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
