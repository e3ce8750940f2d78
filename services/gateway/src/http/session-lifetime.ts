/** Matches the account service's session lifetime (30 days); the server-side expiry is what counts. */
export const SESSION_LIFETIME_SECONDS = 30 * 24 * 3_600;
