import type { FastifyReply } from 'fastify';
import { SESSION_LIFETIME_SECONDS } from './session-lifetime.ts';

/** The httpOnly, Secure, SameSite cookie holding the session token. */
export const SESSION_COOKIE = 'mimamori_session';

/** Lax, not Strict: a person following a link to the product from a mail arrives signed in. */
export function setSessionCookie(reply: FastifyReply, token: string) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'lax',
    maxAge: SESSION_LIFETIME_SECONDS,
  });
}

export function clearSessionCookie(reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, secure: true, sameSite: 'lax' });
}
