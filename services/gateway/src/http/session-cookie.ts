import type { FastifyReply } from 'fastify';
import { SESSION_LIFETIME_SECONDS } from './session-lifetime.ts';

/** The httpOnly, Secure, SameSite cookie holding the session token. */
export const SESSION_COOKIE = 'mimamori_session';

/**
 * A readable hint beside the session cookie, holding no secret: it tells the SPA a session may
 * exist, so a signed-out visitor's pages do not ask signed-in endpoints and log their 401s. The
 * session cookie alone decides who is signed in; the SPA drops the hint when user_info says 401.
 */
export const SIGNED_IN_HINT_COOKIE = 'mimamori_signed_in';

/** Lax, not Strict: a person following a link to the product from a mail arrives signed in. */
export function setSessionCookie(reply: FastifyReply, token: string) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'lax',
    maxAge: SESSION_LIFETIME_SECONDS,
  });
  setSignedInHint(reply);
}

export function setSignedInHint(reply: FastifyReply) {
  reply.setCookie(SIGNED_IN_HINT_COOKIE, '1', {
    path: '/',
    httpOnly: false,
    secure: true,
    sameSite: 'lax',
    maxAge: SESSION_LIFETIME_SECONDS,
  });
}

export function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, secure: true, sameSite: 'lax' });
  reply.clearCookie(SIGNED_IN_HINT_COOKIE, { path: '/', secure: true, sameSite: 'lax' });
}
