/** The httpOnly, Secure, SameSite cookie holding the session token. */
export const SESSION_COOKIE = 'mimamori_session';
