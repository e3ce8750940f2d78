import type { accountV1, auditV1, chatLinkV1, targetV1, webhookV1 } from '@mimamori/contracts';
import type { AuditAction } from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from './session-caller.ts';
import { SESSION_COOKIE } from './session-cookie.ts';
import { settingsJson } from './target-json.ts';

/**
 * The audit log's recording side (ADR 0036): after a route that changes something has succeeded,
 * the gateway, which alone knows the caller's address, user agent and session, records what was
 * done through the account service. A refused or failed request records nothing: only an answer
 * under 400 (a redirect whose target says it succeeded, for the OAuth returns) is an action done.
 *
 * The rules live here, not in the route files, so the routes stay as they are and one table
 * says what each route records. A route missing from the table records nothing.
 */

export interface AuditTrailDeps {
  audit: auditV1.AuditServiceClient;
  account: accountV1.AccountServiceClient;
  target?: targetV1.TargetServiceClient | undefined;
  chatLinks?: chatLinkV1.ChatLinkServiceClient | undefined;
  webhooks?: webhookV1.WebhookServiceClient | undefined;
}

type Json = Record<string, unknown>;

interface Done {
  request: FastifyRequest;
  reply: FastifyReply;
  body: Json;
  answer: Json;
  /** What `before` read ahead of the route (a site's label and settings before it changed). */
  before: Json | null;
  /** What `after` read once the route succeeded (the settings as saved). */
  after: Json | null;
}

interface Subject {
  kind: string;
  id: string;
  label: string;
}

interface AuditRule {
  action: AuditAction;
  subject?: (done: Done) => Subject;
  details?: (done: Done) => Record<string, string>;
  /** Read ahead of the route: what the action is about to remove or change. */
  before?: (request: FastifyRequest, deps: AuditTrailDeps) => Promise<Json | null>;
  /** Read once the route succeeded, to compare with `before` in the same form. */
  after?: (request: FastifyRequest, deps: AuditTrailDeps) => Promise<Json | null>;
  /** Whether an answer under 400 is the action done (a redirect may carry a refusal). */
  done?: (done: Done) => boolean;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const record = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const session = (request: FastifyRequest) => request.cookies[SESSION_COOKIE] ?? '';

const site = (id: string, label: unknown): Subject => ({ kind: 'site', id, label: text(label) });
const siteRef = ({ body }: Done) => text(body.target_v2_id) || text(body.target_id);
/** A changed site row answers `changed`: pausing a paused site did nothing to record. */
const changedRow = ({ answer }: Done) => answer.changed === true;
/** Only a webhook's origin: its path or query may carry a token the receiver checks. */
const origin = (url: unknown) => {
  try {
    return new URL(text(url)).origin;
  } catch {
    return '';
  }
};
/** The names of the fields a body sent, never their values. */
const fieldsSent = (body: Json, except: readonly string[] = []) =>
  Object.keys(body)
    .filter((key) => !except.includes(key))
    .sort()
    .join(',');

async function siteRow(request: FastifyRequest, deps: AuditTrailDeps): Promise<Json | null> {
  const id = siteRef({ body: record(request.body) } as Done);
  if (!deps.target || !id) return null;
  const caller = await callerFor(request, deps);
  if (!caller) return null;
  const { rows } = await unary(deps.target, 'listTargets', { caller });
  const row = rows.find((candidate) => candidate.id === id);
  return row ? { label: row.label } : null;
}

async function siteSettings(request: FastifyRequest, deps: AuditTrailDeps): Promise<Json | null> {
  const id = text(record(request.body).target_v2_id);
  if (!deps.target || !id) return null;
  const caller = await callerFor(request, deps);
  if (!caller) return null;
  const found = await unary(deps.target, 'getTarget', { caller, targetId: id });
  return { settings: settingsJson(found.settings) };
}

async function callerFor(request: FastifyRequest, deps: AuditTrailDeps) {
  const { userInfo } = await unary(deps.account, 'getUserInfo', { sessionToken: session(request) });
  return userInfo?.userId ? callerOf(userInfo).caller : null;
}

/**
 * The settings fields an edit changed, by name: the settings before and after, both as the edit
 * screen reads them (secrets are never read back, so a changed secret is not named).
 */
function changedSettings({ before, after }: Done): Record<string, string> {
  const old = record(before?.settings);
  const saved = record(after?.settings);
  const changed = [...new Set([...Object.keys(old), ...Object.keys(saved)])]
    .filter((key) => JSON.stringify(old[key]) !== JSON.stringify(saved[key]))
    .sort();
  return { fields: changed.join(',') };
}

const RULES: Record<string, AuditRule> = {
  'POST /api/v2/target/register': {
    action: 'site.created',
    subject: ({ answer, body }) => site(text(answer.target_v2_id), body.label),
  },
  'POST /api/v2/target/update': {
    action: 'site.edited',
    subject: ({ body }) => site(text(body.target_v2_id), body.label),
    before: siteSettings,
    after: siteSettings,
    details: changedSettings,
  },
  'POST /api/v1/import': {
    action: 'site.imported',
    details: ({ answer }) => ({ count: String(Array.isArray(answer.imported) ? answer.imported.length : 0) }),
  },
  'POST /api/v2/resume_held': {
    action: 'site.held_resumed',
    details: ({ answer }) => ({ resumed: String(answer.resumed ?? 0) }),
  },
  'POST /api/v2/chat-links': {
    action: 'channel.linked',
    subject: ({ answer }) => chatLink(record(answer.link)),
    details: ({ answer }) => ({ platform: text(record(answer.link).platform) }),
  },
  'GET /chat/oauth/:platform/callback': {
    action: 'channel.linked',
    done: ({ reply }) => String(reply.getHeader('location') ?? '').includes('chat_linked='),
    subject: ({ request }) => ({ kind: 'chat_link', id: '', label: text(record(request.params).platform) }),
    details: ({ request }) => ({ platform: text(record(request.params).platform) }),
  },
  'POST /api/v2/chat-links/delete': {
    action: 'channel.removed',
    before: async (request, deps) => {
      if (!deps.chatLinks) return null;
      const { links } = await unary(deps.chatLinks, 'listChatLinks', { sessionToken: session(request) });
      const link = links.find((candidate) => candidate.id === text(record(request.body).id));
      return link ? { link } : null;
    },
    subject: ({ body, before }) => ({
      ...chatLink(record(before?.link)),
      id: text(body.id),
    }),
    details: ({ before }) => ({ platform: text(record(before?.link).platform) }),
  },
  'POST /api/account/discord': {
    action: 'channel.linked',
    subject: () => ({ kind: 'discord', id: 'discord', label: 'Discord' }),
    details: () => ({ platform: 'discord' }),
  },
  'POST /api/account/discord/delete': {
    action: 'channel.removed',
    subject: () => ({ kind: 'discord', id: 'discord', label: 'Discord' }),
    details: () => ({ platform: 'discord' }),
  },
  'POST /api/webhooks': {
    action: 'webhook.added',
    subject: ({ answer, body }) => ({
      kind: 'webhook',
      id: text(record(answer.webhook).id),
      label: origin(body.url),
    }),
    details: ({ body }): Record<string, string> =>
      text(body.target_id) ? { site: text(body.target_id) } : {},
  },
  'POST /api/webhooks/rotate': {
    action: 'webhook.secret_rotated',
    subject: ({ answer, body }) => ({
      kind: 'webhook',
      id: text(body.id),
      label: origin(record(answer.webhook).url),
    }),
  },
  'POST /api/webhooks/delete': {
    action: 'webhook.removed',
    before: async (request, deps) => {
      if (!deps.webhooks) return null;
      const { webhooks } = await unary(deps.webhooks, 'listWebhooks', { sessionToken: session(request) });
      const hook = webhooks.find((candidate) => candidate.id === text(record(request.body).id));
      return hook ? { url: hook.url } : null;
    },
    subject: ({ body, before }) => ({ kind: 'webhook', id: text(body.id), label: origin(before?.url) }),
  },
  'POST /api/billing/card': { action: 'billing.card_changed' },
  'POST /api/billing/plan': {
    action: 'billing.plan_changed',
    details: ({ body }) => ({
      plan: String(body.plan ?? ''),
      cycle: text(body.cycle),
      ...(text(body.timing) ? { timing: text(body.timing) } : {}),
    }),
  },
  'POST /api/billing/plan/booked/cancel': { action: 'billing.plan_change_cancelled' },
  'POST /api/billing/cancel': { action: 'billing.cancelled' },
  'POST /api/billing/cancel/undo': { action: 'billing.cancel_undone' },
  'POST /api/billing/reprocess': { action: 'billing.payment_retried' },
  'POST /api/billing/recipient': { action: 'billing.recipient_changed' },
  'POST /api/tokens': {
    action: 'token.created',
    subject: ({ answer }) => ({
      kind: 'token',
      id: text(record(answer.token).id),
      label: text(record(answer.token).name),
    }),
    details: ({ answer }) => {
      const token = record(answer.token);
      return {
        scopes: Array.isArray(token.scopes) ? token.scopes.join(',') : '',
        expires_at: text(token.expires_at),
      };
    },
  },
  'POST /api/tokens/revoke': {
    action: 'token.revoked',
    before: async (request, deps) => {
      const { tokens } = await unary(deps.account, 'listApiTokens', { sessionToken: session(request) });
      const token = tokens.find((candidate) => candidate.id === text(record(request.body).id));
      return token ? { name: token.name } : null;
    },
    subject: ({ body, before }) => ({ kind: 'token', id: text(body.id), label: text(before?.name) }),
  },
  'POST /api/feeds/rotate': { action: 'token.feed_rotated' },
  'POST /api/account/export': { action: 'export.account_data' },
  'GET /api/billing/invoices/csv': { action: 'export.invoices' },
  'GET /api/audit/csv': {
    action: 'export.audit_log',
    details: ({ request }) => {
      const query = record(request.query);
      return Object.fromEntries(
        ['person', 'kind', 'subject', 'from', 'until', 'lang']
          .filter((key) => text(query[key]))
          .map((key) => [key, text(query[key])]),
      );
    },
  },
  // A right password for an account with a second factor opens no session yet: the second step
  // records the sign-in, naming the factor.
  'POST /api/signin': {
    action: 'signin.succeeded',
    done: ({ reply }) => newSession(reply) !== '',
    details: () => ({ method: 'password' }),
  },
  'POST /api/signin/code': {
    action: 'signin.succeeded',
    details: ({ body }) => ({ method: text(body.recovery_code) ? 'recovery_code' : 'totp' }),
  },
  'POST /api/signin/passkey': { action: 'signin.succeeded', details: () => ({ method: 'passkey' }) },
  'POST /api/security/totp/confirm': { action: 'settings.totp_enabled' },
  'POST /api/security/totp/disable': { action: 'settings.totp_disabled' },
  'POST /api/security/recovery_codes': { action: 'settings.recovery_codes_renewed' },
  'POST /api/security/passkeys': {
    action: 'settings.passkey_added',
    subject: ({ answer }) => ({ kind: 'passkey', id: text(answer.id), label: text(answer.name) }),
  },
  'POST /api/security/passkeys/delete': {
    action: 'settings.passkey_removed',
    subject: ({ body }) => ({ kind: 'passkey', id: text(body.passkey_id), label: '' }),
  },
  'POST /api/security/sessions/end': { action: 'settings.session_ended' },
  'POST /api/security/sessions/end_others': { action: 'settings.other_sessions_ended' },
  'GET /api/signin/x/callback': {
    action: 'signin.succeeded',
    done: ({ reply }) => newSession(reply) !== '',
    details: () => ({ method: 'x' }),
  },
  'POST /api/account/update': {
    action: 'settings.profile_changed',
    details: ({ body }) => ({ fields: fieldsSent(body, ['user_id']) }),
  },
  'POST /api/account/email': { action: 'settings.email_changed' },
  'POST /api/account/password': { action: 'settings.password_changed' },
  'POST /api/account/mails': {
    action: 'settings.mail_added',
    subject: ({ body }) => ({ kind: 'mail', id: '', label: text(body.email) }),
  },
  'POST /api/account/mails/delete': {
    action: 'settings.mail_removed',
    subject: ({ body }) => ({ kind: 'mail', id: text(body.mail_id), label: '' }),
  },
  // Workspaces (docs/product.md#workspaces): who invited, let in, moved or removed whom. Leaving
  // is not recorded here: once the route has answered, the session is back in the person's own.
  'POST /api/workspace/invitations': {
    action: 'member.invited',
    subject: ({ body }) => ({ kind: 'member', id: '', label: text(body.email) }),
    details: ({ body }) => ({ role: text(body.role) }),
  },
  'POST /api/workspace/invitations/revoke': {
    action: 'member.invitation_revoked',
    subject: ({ body }) => ({ kind: 'invitation', id: text(body.id), label: '' }),
  },
  'POST /api/invitations/accept': {
    action: 'member.joined',
    details: ({ answer }) => ({ role: text(record(answer.workspace).role) }),
  },
  'POST /api/workspace/members/role': {
    action: 'member.role_changed',
    subject: (done) => memberOf(done),
    details: ({ body }) => ({ role: text(body.role) }),
  },
  'POST /api/workspace/members/remove': {
    action: 'member.removed',
    subject: ({ body }) => ({ kind: 'member', id: text(body.person_id), label: '' }),
  },
  'POST /api/workspace/transfer': {
    action: 'member.ownership_transferred',
    subject: (done) => memberOf(done),
  },
  'POST /api/workspace/security': {
    action: 'member.two_factor_requirement_changed',
    details: ({ body }) => ({ required: body.two_factor_required === true ? 'yes' : 'no' }),
  },
  'POST /api/v2/quiet-hours': {
    action: 'settings.quiet_hours_changed',
    details: ({ body }) => ({ fields: fieldsSent(body) }),
  },
};

// The site actions of both API versions: the same rule under /api and /api/v2.
for (const prefix of ['/api', '/api/v2']) {
  RULES[`POST ${prefix}/pause`] = {
    action: 'site.paused',
    done: changedRow,
    subject: (done) => site(siteRef(done), record(done.answer.target).label),
  };
  RULES[`POST ${prefix}/resume`] = {
    action: 'site.resumed',
    done: changedRow,
    subject: (done) => site(siteRef(done), record(done.answer.target).label),
  };
  RULES[`POST ${prefix}/delete`] = {
    action: 'site.deleted',
    before: siteRow,
    subject: (done) => site(siteRef(done), done.before?.label),
  };
}

/** The member a route named, with their address as the members list answered it. */
function memberOf({ body, answer }: Done): Subject {
  const id = text(body.person_id);
  const members = Array.isArray(answer.members) ? answer.members.map(record) : [];
  const member = members.find((candidate) => text(candidate.person_id) === id);
  return { kind: 'member', id, label: text(member?.email) };
}

function chatLink(link: Json): Subject {
  return { kind: 'chat_link', id: text(link.id), label: text(link.label) || text(link.platform) };
}

/** The session a sign-in route has just set, read from its Set-Cookie. */
function newSession(reply: FastifyReply): string {
  const header = reply.getHeader('set-cookie');
  const cookies = Array.isArray(header) ? header : header ? [String(header)] : [];
  for (const cookie of cookies) {
    const match = new RegExp(`^${SESSION_COOKIE}=([^;]+)`).exec(String(cookie));
    if (match?.[1]) return decodeURIComponent(match[1]);
  }
  return '';
}

/** The actions a route records, for tests and the ADR's table. */
export function auditedRoutes(): Record<string, AuditAction> {
  return Object.fromEntries(Object.entries(RULES).map(([route, rule]) => [route, rule.action]));
}

const ahead = new WeakMap<FastifyRequest, Promise<Json | null>>();

export function auditTrail(app: FastifyInstance, deps: AuditTrailDeps) {
  const ruleOf = (request: FastifyRequest) => RULES[`${request.method} ${request.routeOptions.url}`];
  const client = (request: FastifyRequest) => ({
    address: request.ip,
    userAgent: String(request.headers['user-agent'] ?? ''),
  });

  app.addHook('preHandler', async (request) => {
    const rule = ruleOf(request);
    if (!rule?.before || !session(request)) return;
    // A failed look-ahead leaves the label empty; it never stops the action.
    ahead.set(
      request,
      rule.before(request, deps).catch((error: unknown) => {
        request.log.warn({ err: error }, 'audit look-ahead failed');
        return null;
      }),
    );
    await ahead.get(request);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const rule = ruleOf(request);
    if (!rule) return payload;
    if (request.method === 'POST' && request.routeOptions.url === '/api/signin' && reply.statusCode === 401) {
      // Not awaited: a known address must not answer slower than an unknown one.
      const email = text(record(request.body).email);
      void unary(deps.audit, 'recordFailedSignIn', { email, client: client(request) }).catch(
        (error: unknown) => request.log.warn({ err: error }, 'failed sign-in not recorded'),
      );
      return payload;
    }
    if (reply.statusCode >= 400) return payload;
    const done: Done = {
      request,
      reply,
      body: record(request.body),
      answer: parsed(payload),
      before: (await ahead.get(request)) ?? null,
      after: null,
    };
    if (rule.done && !rule.done(done)) return payload;
    const sessionToken = newSession(reply) || session(request);
    if (!sessionToken) return payload;
    if (rule.after) {
      done.after = await rule.after(request, deps).catch((error: unknown) => {
        request.log.warn({ err: error }, 'audit read-back failed');
        return null;
      });
    }
    const subject = rule.subject?.(done) ?? { kind: '', id: '', label: '' };
    try {
      await unary(deps.audit, 'recordAuditEntry', {
        sessionToken,
        action: rule.action,
        subjectKind: subject.kind,
        subjectId: subject.id,
        subjectLabel: subject.label,
        client: client(request),
        details: rule.details?.(done) ?? {},
      });
    } catch (error) {
      // The action is done and answered as done; a lost entry is logged for the operator.
      request.log.error({ err: error, action: rule.action }, 'audit entry not recorded');
    }
    return payload;
  });
}

function parsed(payload: unknown): Json {
  if (typeof payload !== 'string' || !payload.startsWith('{')) return {};
  try {
    return record(JSON.parse(payload));
  } catch {
    return {};
  }
}
