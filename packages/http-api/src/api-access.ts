import { z } from 'zod';
import { csrfFailed, refusal, signedOut } from './api-error.ts';

// Reaching the account without a browser (docs/api.md): personal access tokens for the API and
// the account's secret feed URLs (Atom and RSS 2.0).

const body = <Shape extends z.core.$ZodLooseShape>(shape: Shape) => z.object(shape).nullish();

export const API_TOKEN_SCOPES = ['read', 'write'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export const apiTokenCreateBody = body({
  name: z.string().nullish().describe('What the token is for, up to 60 characters (e.g. "deploy script")'),
  scopes: z.array(z.string()).nullish().describe('read (GET requests), write (every other method), or both'),
  expires_in_days: z.number().int().nullish().describe('Days until the token stops working, 1 to 366'),
});
export const apiTokenIdBody = body({ id: z.string().nullish().describe('The token’s id (not its secret)') });

export const apiToken = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.enum(API_TOKEN_SCOPES)),
    created_at: z.iso.datetime(),
    expires_at: z.iso.datetime(),
    last_used_at: z.iso.datetime().nullable().describe('Null when never used; noted at most once a minute.'),
  })
  .meta({ id: 'ApiToken' });
export type ApiToken = z.infer<typeof apiToken>;

export const apiTokenList = z
  .object({ tokens: z.array(apiToken) })
  .describe('The account’s API tokens, oldest first, expired ones included; never their secrets');
export type ApiTokenList = z.infer<typeof apiTokenList>;

export const apiTokenWithSecret = z
  .object({
    token: apiToken,
    secret: z.string().describe('The bearer secret (mmr_…), answered this once: it is never shown again.'),
  })
  .describe('The new token and its secret');
export type ApiTokenWithSecret = z.infer<typeof apiTokenWithSecret>;

export const apiTokenRevoked = z
  .object({ status: z.literal('revoked') })
  .describe('Revoked: it stops at once');

export const feedUrls = z
  .object({
    atom_url: z.string().describe('Every site’s updates, as Atom'),
    rss_url: z.string().describe('Every site’s updates, as RSS 2.0'),
    site_atom_url: z
      .string()
      .describe('One site’s updates as Atom: replace {target_id} with the site’s id (rss.xml for RSS 2.0)'),
  })
  .describe('The account’s secret feed URLs; anyone with one can read the feed, so rotate a leaked one');
export type FeedUrls = z.infer<typeof feedUrls>;

const sessionRequired = 'session_required';

export const apiAccessRefusals = {
  signedOut,
  csrf: csrfFailed,
  create: refusal('Refused', [
    'api_token_name_invalid',
    'api_token_scopes_invalid',
    'api_token_expiry_invalid',
    'api_token_quota_exceeded',
  ]),
  notFound: refusal('Not this account’s', ['api_token_not_found']),
  session: refusal('Tokens and feed URLs are managed from a browser session, not with a token (or CSRF)', [
    sessionRequired,
    'csrf_failed',
  ]),
};
