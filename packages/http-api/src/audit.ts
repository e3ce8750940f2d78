import { z } from 'zod';
import { refusal, signedOut } from './api-error.ts';

// The workspace's audit log (docs/product.md#audit-log): who did what, when and from where.

/**
 * Every action the log records, `<kind>.<verb>`. The gateway records them (ADR 0036); the
 * workspaces' member actions are named here for the code that will do them.
 */
export const AUDIT_ACTIONS = [
  'site.created',
  'site.edited',
  'site.paused',
  'site.resumed',
  'site.deleted',
  'site.imported',
  'site.held_resumed',
  'channel.linked',
  'channel.removed',
  'webhook.added',
  'webhook.secret_rotated',
  'webhook.removed',
  'member.invited',
  'member.invitation_revoked',
  'member.joined',
  'member.removed',
  'member.role_changed',
  'member.ownership_transferred',
  'member.two_factor_requirement_changed',
  'billing.card_changed',
  'billing.plan_changed',
  'billing.plan_change_cancelled',
  'billing.cancelled',
  'billing.cancel_undone',
  'billing.payment_retried',
  'billing.recipient_changed',
  'billing.provider_event',
  'token.created',
  'token.revoked',
  'token.feed_rotated',
  'export.account_data',
  'export.audit_log',
  'export.invoices',
  'signin.succeeded',
  'signin.failed',
  'settings.profile_changed',
  'settings.email_changed',
  'settings.password_changed',
  'settings.mail_added',
  'settings.mail_removed',
  'settings.quiet_hours_changed',
  'settings.totp_enabled',
  'settings.totp_disabled',
  'settings.recovery_codes_renewed',
  'settings.passkey_added',
  'settings.passkey_removed',
  'settings.session_ended',
  'settings.other_sessions_ended',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The part before the dot: what the screen's kind filter offers. */
export const AUDIT_KINDS = [
  'site',
  'channel',
  'webhook',
  'member',
  'billing',
  'token',
  'export',
  'signin',
  'settings',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export const auditQuery = z.object({
  person: z.uuid().optional().describe('Only what this person did (their id)'),
  kind: z.enum(AUDIT_KINDS).optional().describe('Only this kind of action'),
  subject: z.string().max(100).optional().describe('Only actions on this subject (a site’s id)'),
  from: z.iso.datetime({ offset: true }).optional().describe('Entries at or after this time'),
  until: z.iso.datetime({ offset: true }).optional().describe('Entries before this time'),
  page: z.coerce.number().int().min(1).max(100_000).optional().describe('1 for the newest 50'),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const auditCsvQuery = auditQuery.omit({ page: true }).extend({
  lang: z.enum(['ja', 'en']).optional().describe('The headers’ language; the account’s when unset'),
});

export const auditEntry = z
  .object({
    id: z.string(),
    at: z.iso.datetime(),
    actor: z.object({
      person_id: z.string().nullable().describe('Null when no person acted (a refused sign-in, Stripe)'),
      label: z.string().describe('The person’s name and address as they were then'),
      token: z.string().nullable().describe('The API token’s name when one acted for the person'),
    }),
    action: z.string().describe('One of the audit actions, e.g. site.created'),
    subject: z.object({
      kind: z.string(),
      id: z.string(),
      label: z.string().describe('The subject’s name as it was then (a site’s label)'),
    }),
    ip: z.string(),
    user_agent: z.string(),
    details: z
      .record(z.string(), z.string())
      .describe('Small facts: field names changed, a platform; never secrets'),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditPage = z
  .object({
    entries: z.array(auditEntry),
    page: z.number().int(),
    page_size: z.number().int(),
    total: z.number().int(),
    people: z.array(z.object({ person_id: z.string(), label: z.string() })),
    retention_days: z.number().int().describe('How many days the plan keeps entries'),
  })
  .describe('The workspace’s audit log, newest first');
export type AuditPage = z.infer<typeof auditPage>;

export const auditRefusals = {
  signedOut,
  badFilter: refusal('A filter the log cannot apply', ['bad_request', 'bad_filter']),
  session: refusal('Read from a browser session by the workspace’s owner or admins, not with a token', [
    'session_required',
    'forbidden',
  ]),
};
