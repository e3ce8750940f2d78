import type { accountV1 } from '@mimamori/contracts';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance } from 'fastify';
import { sendAccountFailure } from './account-failure.ts';
import { sendApiError } from './api-error.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

/** docs/product.md#workspaces: the roles of a workspace's members, least first. */
export const ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Who may call a route: `public` needs no session (the route authorises itself, see the route
 * table test's reasons); `person` acts on the signed-in person's own sign-in whatever their role
 * (their password, their address); a role is the least role in the current workspace.
 */
export type RouteAccess = 'public' | 'person' | Role;

const siteRoutes = (prefix: string): Record<string, RouteAccess> => ({
  [`GET ${prefix}/history`]: 'viewer',
  [`GET ${prefix}/registration_data`]: 'viewer',
  [`POST ${prefix}/pause`]: 'editor',
  [`POST ${prefix}/resume`]: 'editor',
  // Marking a site's updates read is the workspace's shared state, so it is a change.
  [`POST ${prefix}/seen`]: 'editor',
  [`POST ${prefix}/delete`]: 'editor',
});

/**
 * Every /api route and the least it needs, in this one place (ADR 0033). The gateway refuses a
 * route missing here, and the route table test walks every route × every role against it, so a
 * new route cannot ship without a declaration and its test. A viewer reads everything and
 * changes nothing; an editor manages sites and follows; an admin also members and channels
 * (mail addresses, Discord, webhooks, chat links, quiet hours); the owner also billing, API
 * tokens, feeds and the workspace itself.
 */
export const ROUTE_ACCESS: Record<string, RouteAccess> = {
  'POST /api/signup': 'public',
  'POST /api/signin': 'public',
  'GET /api/signin/x': 'public',
  'GET /api/signin/x/callback': 'public',
  // The second step of a sign-in, and passkey sign-in: no session yet (ADR 0034).
  'POST /api/signin/code': 'public',
  'POST /api/signin/passkey/options': 'public',
  'POST /api/signin/passkey': 'public',
  'POST /api/verify': 'public',
  'POST /api/reset_pass/request': 'public',
  'POST /api/reset_pass': 'public',
  'GET /api/req_support': 'public',
  'POST /api/req_support': 'public',
  'GET /api/signout': 'public',
  'GET /api/openapi.json': 'public',
  'GET /api/plans': 'public',
  'GET /api/operator': 'public',
  'POST /api/stripe/webhook': 'public',

  'POST /api/account/password': 'person',
  'POST /api/account/email': 'person',
  // Who the caller is and where: the screen a member without a required second factor is sent to
  // needs it too, and it says when the workspace is gone.
  'GET /api/user_info': 'person',
  // A person's own workspaces: listing, switching, joining and leaving (the owner cannot leave).
  'GET /api/workspaces': 'person',
  'POST /api/workspaces/switch': 'person',
  'POST /api/invitations/accept': 'person',
  'POST /api/workspace/leave': 'person',
  // A person's own sign-in security: second factors, passkeys and sessions (ADR 0034).
  'GET /api/security': 'person',
  'POST /api/security/totp/start': 'person',
  'POST /api/security/totp/confirm': 'person',
  'POST /api/security/totp/disable': 'person',
  'POST /api/security/recovery_codes': 'person',
  'POST /api/security/passkeys/options': 'person',
  'POST /api/security/passkeys': 'person',
  'POST /api/security/passkeys/delete': 'person',
  'GET /api/security/sessions': 'person',
  'POST /api/security/sessions/end': 'person',
  'POST /api/security/sessions/end_others': 'person',

  'GET /api/workspace/members': 'viewer',
  'GET /api/account': 'viewer',
  'GET /api/account/storage': 'viewer',
  'POST /api/support': 'viewer',
  'GET /api/v2/targets': 'viewer',
  'GET /api/v2/target': 'viewer',
  'GET /api/v2/screenshot': 'viewer',
  'GET /api/filings/sources': 'viewer',
  'POST /api/tdedi/search': 'viewer',
  'POST /api/cik/search': 'viewer',
  'POST /api/isin/search': 'viewer',
  'GET /api/webhooks': 'viewer',
  'GET /api/v2/chat-links': 'viewer',
  'GET /api/v2/quiet-hours': 'viewer',
  'GET /api/billing': 'viewer',
  'GET /api/billing/invoices': 'viewer',
  'GET /api/billing/invoices/csv': 'viewer',
  'GET /api/billing/invoices/pdf': 'viewer',
  'POST /api/billing/plan/preview': 'viewer',
  ...siteRoutes('/api'),
  ...siteRoutes('/api/v2'),

  'POST /api/v2/target/register': 'editor',
  'POST /api/v2/target/update': 'editor',
  'POST /api/v1/import': 'editor',
  'POST /api/v2/resume_held': 'editor',
  'POST /api/preview/open': 'editor',
  'POST /api/preview/render': 'editor',
  'POST /api/preview/document': 'editor',
  'POST /api/preview/area': 'editor',
  'POST /api/v2/pattern/check': 'editor',
  'POST /api/preview/actions': 'editor',
  'POST /api/preview/login': 'editor',
  'POST /api/preview/close': 'editor',
  'POST /api/tdedi/register': 'editor',
  'POST /api/tdedi/delete': 'editor',
  'POST /api/cik/register': 'editor',
  'POST /api/isin/register': 'editor',
  'POST /api/cikisin/delete': 'editor',

  // The audit log: owners and admins see and filter it (docs/product.md#audit-log).
  'GET /api/audit': 'admin',
  'GET /api/audit/csv': 'admin',
  'POST /api/workspace/invitations': 'admin',
  'POST /api/workspace/invitations/revoke': 'admin',
  'POST /api/workspace/members/role': 'admin',
  'POST /api/workspace/members/remove': 'admin',
  'POST /api/account/mails': 'admin',
  'POST /api/account/mails/delete': 'admin',
  'POST /api/account/discord': 'admin',
  'POST /api/account/discord/delete': 'admin',
  'POST /api/webhooks': 'admin',
  'POST /api/webhooks/delete': 'admin',
  'POST /api/webhooks/rotate': 'admin',
  'POST /api/webhooks/test': 'admin',
  'POST /api/v2/chat-links': 'admin',
  'POST /api/v2/chat-links/start': 'admin',
  'POST /api/v2/chat-links/test': 'admin',
  'POST /api/v2/chat-links/delete': 'admin',
  'POST /api/v2/quiet-hours': 'admin',

  // The workspace's name, language, time zone and billing currency.
  'POST /api/account/update': 'owner',
  'POST /api/workspace/transfer': 'owner',
  'POST /api/workspace/security': 'owner',
  'POST /api/account/delete': 'owner',
  'POST /api/account/export': 'owner',
  'POST /api/billing/setup_intent': 'owner',
  'POST /api/billing/card': 'owner',
  'POST /api/billing/plan': 'owner',
  'POST /api/billing/plan/booked/cancel': 'owner',
  'POST /api/billing/cancel': 'owner',
  'POST /api/billing/cancel/undo': 'owner',
  'POST /api/billing/reprocess': 'owner',
  'POST /api/billing/recipient': 'owner',
  'POST /api/billing/project_request': 'owner',
  // A token acts with the owner's authority within its scope, and a feed URL outlives a
  // member's removal: both are the owner's to make, see and replace.
  'GET /api/tokens': 'owner',
  'POST /api/tokens': 'owner',
  'POST /api/tokens/revoke': 'owner',
  'GET /api/feeds': 'owner',
  'POST /api/feeds/rotate': 'owner',
};

export function roleAllows(role: string, least: Role): boolean {
  return ROLES.indexOf(role as Role) >= ROLES.indexOf(least);
}

/**
 * Refuses a member whose role is below the route's declared least role (403 role_forbidden)
 * before the route runs, and any /api route without a declaration (403 route_undeclared: closed,
 * never open, by mistake), and a member of a workspace that requires a second factor they lack
 * (403 two_factor_required) on every workspace route. A request without a session goes on to the route,
 * which answers 401 as before. Registered after the bearer check: a token stands in for the
 * session and acts as the owner within its scope.
 */
export function roleGuard(app: FastifyInstance, deps: { account: accountV1.AccountServiceClient }) {
  app.addHook('preValidation', async (request, reply) => {
    const url = request.routeOptions.url;
    if (!url?.startsWith('/api/')) return;
    const access = ROUTE_ACCESS[`${request.method === 'HEAD' ? 'GET' : request.method} ${url}`];
    if (access === undefined) return sendApiError(reply, 403, 'route_undeclared');
    if (access === 'public' || access === 'person') return;
    const sessionToken = request.cookies[SESSION_COOKIE];
    if (!sessionToken) return;
    let caller: { role: string; secondFactorMissing: boolean };
    try {
      caller = await unary(deps.account, 'getCaller', { sessionToken });
    } catch (error) {
      return sendAccountFailure(reply, error);
    }
    // docs/product.md#workspaces: a workspace that requires a second factor answers a member
    // without one only on their own routes (setting one up, switching workspace) until they have.
    if (caller.secondFactorMissing) return sendApiError(reply, 403, 'two_factor_required');
    if (!roleAllows(caller.role, access)) return sendApiError(reply, 403, 'role_forbidden');
  });
}
