import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A password accepted, its second factor to come: the ticket waits in this httpOnly cookie, seen
 * only by the sign-in paths, for the 10 minutes the account service keeps it.
 */
export const PENDING_SIGN_IN_COOKIE = 'mimamori_sign_in';
const PENDING_PATH = '/api/signin';
/**
 * Names this browser to the account service, which mails the owner when an account signs in from
 * one it has not seen (docs/product.md#two-factor-sign-in). Holds no power of its own.
 */
export const DEVICE_COOKIE = 'mimamori_device';
/** Browsers keep a cookie 400 days at most. */
const DEVICE_MAX_AGE_S = 400 * 86_400;

export function setPendingSignIn(reply: FastifyReply, ticket: string) {
  reply.setCookie(PENDING_SIGN_IN_COOKIE, ticket, {
    path: PENDING_PATH,
    httpOnly: true,
    secure: true,
    // Lax, not Strict: X's redirect back to the callback is a navigation from another site.
    sameSite: 'lax',
    maxAge: 600,
  });
}

export function clearPendingSignIn(reply: FastifyReply) {
  reply.clearCookie(PENDING_SIGN_IN_COOKIE, {
    path: PENDING_PATH,
    httpOnly: true,
    secure: true,
    sameSite: 'lax',
  });
}

export function setDeviceCookie(reply: FastifyReply, token: string) {
  if (!token) return;
  reply.setCookie(DEVICE_COOKIE, token, {
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'lax',
    maxAge: DEVICE_MAX_AGE_S,
  });
}

/** What the account service is told about where a sign-in comes from. */
export function signInClient(request: FastifyRequest, previousSessionToken: string) {
  return {
    clientAddress: request.ip,
    userAgent: String(request.headers['user-agent'] ?? '').slice(0, 512),
    previousSessionToken,
    deviceToken: request.cookies[DEVICE_COOKIE] ?? '',
  };
}
