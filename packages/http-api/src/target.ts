import { CONTENT_KINDS } from '@mimamori/watch-engine/document-areas';
import { z } from 'zod';
import { refusal, signedOut } from './api-error.ts';
import { editRevision, savedRevision } from './edit-conflict.ts';
import {
  areaLocatorAnswer,
  loginVerifyAnswer,
  pageActionAnswer,
  userAgentAnswer,
  viewportAnswer,
} from './page-steps.ts';
import { quietHours, siteQuietHoursBody } from './quiet-hours.ts';
import { siteRow } from './site-row.ts';

// Requests: only types are checked here; the target service checks the values and names the
// field it refuses (interval_too_short, selector_type_invalid, …), so kinds are plain strings.
const locatorBody = z.object({
  selector: z.string().max(10_000).default(''),
  selector_type: z.string().max(20).default('css'),
  frame_selector: z.string().max(10_000).default(''),
  frame_selector_type: z.string().max(20).default(''),
});
const actionBody = z.object({
  type: z.string().max(40),
  locator: locatorBody.optional(),
  value: z
    .string()
    .max(10_000)
    .default('')
    .describe(
      'enter_text: the text (write-only; blank on update keeps the stored one); modifier_key: the key; goto_url: the URL.',
    ),
  skippable: z.boolean().default(false),
});

export type LocatorBody = z.infer<typeof locatorBody>;
export type ActionBody = z.infer<typeof actionBody>;

const areaOptionsDescription =
  'The watch engine’s area options: stripTags, excludeDates, excludeTimes, excludeNumbers, addOnly, excludeWords, ' +
  'excludeRegexes (Python syntax), allowSameWords, excludeSameAsPast {enabled, count}, ' +
  'excludeElements (CSS selectors inside the area, `:scope` being the area; their text is not compared).';
const rulesDescription =
  'Notification rule groups {combine, groups: [{combine, conditions: [{areaId, operand, operator, value}]}]}; empty groups are deleted on save.';

/** A v2 site's settings as the registration wizard and the edit screen send them. */
export const targetSettingsBody = z.object({
  label: z.string().max(10_000).default(''),
  url: z.string().max(10_000).default('').describe('http or https'),
  interval_minutes: z.number().int(),
  screenshot: z.boolean().default(false),
  proxy: z.boolean().default(false),
  mail_notify: z.boolean().default(true),
  chat_notify: z
    .string()
    .max(20)
    .default('none')
    .describe('none, account or site (discord_webhook_url of this site)'),
  discord_webhook_url: z
    .string()
    .max(10_000)
    .default('')
    .describe('Write-only; blank on update keeps the stored one.'),
  user_agent: z
    .object({ kind: z.string().max(20), value: z.string().max(10_000).default('') })
    .default({ kind: 'none', value: '' }),
  viewport: z.object({ width: z.number().int(), height: z.number().int() }).optional(),
  cookies: z.string().max(100_000).default('').describe('Cookie header value; write-only, sealed at rest.'),
  clear_cookies: z.boolean().default(false).describe('Update only: remove the stored cookies.'),
  login: z
    .object({
      actions: z.array(actionBody).max(100),
      verify: z.object({ kind: z.string().max(20), cookie_name: z.string().max(1_000).default('') }),
    })
    .optional(),
  actions: z.array(actionBody).max(100).default([]),
  areas: z
    .array(
      z.object({
        area_id: z.string().max(200),
        label: z.string().max(10_000).default(''),
        content: z.string().max(1_000_000).default('').describe('The area’s text at registration.'),
        locator: locatorBody.optional(),
        options: z.record(z.string(), z.unknown()).default({}).describe(areaOptionsDescription),
      }),
    )
    .max(100)
    .default([]),
  rules: z.record(z.string(), z.unknown()).optional().describe(rulesDescription),
  fetch_mode: z.string().max(20).default('browser').describe('http or browser'),
  content_kind: z
    .string()
    .max(20)
    .default('page')
    .describe('page, pdf, json or xml (RSS and Atom are XML); a document is read in http mode'),
  paused: z.boolean().default(false).describe('Keep (or save) the site paused.'),
  failure_alert_after: z
    .number()
    .int()
    .default(3)
    .describe(
      'Failed checks of one kind in a row before the failure alert, 1–100 (docs/product.md#failure-alerts).',
    ),
  always_render: z
    .boolean()
    .default(false)
    .describe(
      'Browser mode: every check renders the page instead of first asking its requests again (docs/product.md#checks).',
    ),
  silence_alert_days: z
    .number()
    .int()
    .default(0)
    .describe(
      'Days without an update before the silence alert, 1–365; 0 is off (docs/product.md#silence-alerts).',
    ),
  quiet_mode: z
    .string()
    .max(20)
    .default('account')
    .describe(
      'Quiet hours: account (the account’s), none, or own (quiet_hours) (docs/product.md#quiet-hours).',
    ),
  quiet_hours: siteQuietHoursBody,
});

export type TargetSettingsBody = z.infer<typeof targetSettingsBody>;
/** What the SPA sends: fields with a default may be left out. */
export type TargetSettingsInput = z.input<typeof targetSettingsBody>;

export const targetUpdateBody = targetSettingsBody.extend({
  target_v2_id: z.string().max(100),
  revision: editRevision,
});

/** docs/product.md#targets: a v1 site is named by `target_id` under /api, a v2 site by `target_v2_id` under /api/v2. */
export const siteRefBody = {
  1: z.object({ target_id: z.string().max(100) }),
  2: z.object({ target_v2_id: z.string().max(100) }),
} as const;

export const siteIdQuery = z.object({ id: z.string() });

/**
 * A rule's regular expression checked as it is typed (docs/product.md#rules), by the same RE2
 * check Register makes, so the wizard never lets through what Register would refuse.
 */
export const patternCheckBody = z.object({ pattern: z.string().max(10_000) });
export const patternCheck = z.object({
  ok: z.boolean(),
  code: z
    .enum([
      'empty_pattern',
      'too_long',
      'syntax_error',
      'unsupported_lookaround',
      'unsupported_backreference',
      'unsupported_atomic_group',
      'unsupported_possessive',
      'unsupported_conditional',
      'unsupported_flag',
      'too_complex',
    ])
    .optional()
    .describe('Why the pattern is refused (absent when ok)'),
});
export type PatternCheck = z.infer<typeof patternCheck>;

export const chatNotify = z.enum(['none', 'account', 'site']);
export type ChatNotify = z.infer<typeof chatNotify>;
export const fetchMode = z.enum(['http', 'browser']);
export type FetchMode = z.infer<typeof fetchMode>;
export const contentKind = z.enum(CONTENT_KINDS);
export type ContentKind = z.infer<typeof contentKind>;

export const storedAction = pageActionAnswer.extend({
  has_value: z.boolean().describe('An enter_text action has a stored text.'),
});
export type StoredAction = z.infer<typeof storedAction>;

/** The stored settings for the edit screen; secrets are never sent back, only whether they are set. */
export const storedTargetSettings = z.object({
  label: z.string(),
  url: z.string(),
  interval_minutes: z.number().int(),
  screenshot: z.boolean(),
  proxy: z.boolean(),
  mail_notify: z.boolean(),
  chat_notify: chatNotify,
  has_discord_webhook: z.boolean(),
  user_agent: userAgentAnswer,
  viewport: viewportAnswer.nullable(),
  has_cookies: z.boolean(),
  login: z.object({ actions: z.array(storedAction), verify: loginVerifyAnswer }).nullable(),
  actions: z.array(storedAction),
  areas: z.array(
    z.object({
      area_id: z.string(),
      label: z.string(),
      content: z.string(),
      locator: areaLocatorAnswer,
      options: z.unknown().describe(areaOptionsDescription),
    }),
  ),
  rules: z.unknown().describe(rulesDescription),
  fetch_mode: fetchMode,
  content_kind: contentKind,
  paused: z.boolean(),
  failure_alert_after: z.number().int(),
  silence_alert_days: z.number().int(),
  always_render: z.boolean(),
  quiet_mode: z.enum(['account', 'none', 'own']),
  quiet_hours: quietHours.describe('The site’s own; empty unless quiet_mode is own.'),
});
export type StoredTargetSettings = z.infer<typeof storedTargetSettings>;

/** A v1 site has no v2 settings (null). */
export const storedTarget = z
  .object({
    id: z.string(),
    ver: z.number().int(),
    revision: savedRevision,
    settings: storedTargetSettings.nullable(),
    row: siteRow.nullable(),
  })
  .describe('Settings and row');
export type StoredTarget = z.infer<typeof storedTarget>;

export const savedTarget = z
  .object({
    target_v2_id: z.string(),
    paused: z.boolean(),
    paused_for_quota: z
      .boolean()
      .describe('Saved paused: no free slot of the plan (docs/product.md#quotas).'),
    target: siteRow.nullable(),
    revision: savedRevision.describe('The site’s revision after the save'),
  })
  .describe('Saved');
export type SavedTarget = z.infer<typeof savedTarget>;

export const siteList = z
  .object({ targets: z.array(siteRow), at: z.iso.datetime() })
  .describe('Rows, and when they were read');
export type TargetList = z.infer<typeof siteList>;

const changed = z.boolean().describe('False when the site already was in that state.');
export const sitePaused = z
  .object({ status: z.literal('paused'), changed, target: siteRow.nullable() })
  .describe('Paused');
export const siteResumed = z
  .object({ status: z.literal('resumed'), changed, target: siteRow.nullable() })
  .describe('Resumed');
/** POST /api/v2/resume_held: the sites a lifted hold left paused, monitoring again where a slot is free. */
export const heldSitesResumed = z
  .object({
    status: z.literal('resumed'),
    resumed: z.number().int().describe('Sites monitoring again'),
    still_paused: z.number().int().describe('Sites the hold paused that found no free slot'),
  })
  .meta({ id: 'HeldSitesResumed' })
  .describe('Resumed what fits');
export type HeldSitesResumed = z.infer<typeof heldSitesResumed>;
export const siteSeen = z
  .object({ status: z.literal('seen'), target: siteRow.nullable() })
  .describe('NEW cleared');
export const siteDeleted = z.object({ status: z.literal('deleted') }).describe('Deleted');

export const importFormat = z.enum(['list', 'csv', 'yaml']);
export type ImportFormat = z.infer<typeof importFormat>;
export const importBody = z.object({
  text: z.string().max(2_000_000),
  format: z.string().max(10).default('').describe('list, csv, yaml, or empty to let the gateway tell'),
});

export const importProblemCode = z.enum([
  'url_invalid',
  'duplicate',
  'already_registered',
  'unsupported_job',
  'label_too_long',
  'syntax_error',
  'too_many',
]);
export const importProblem = z.object({ line: z.number().int(), code: importProblemCode, text: z.string() });
export type ImportProblem = z.infer<typeof importProblem>;

export const importOutcome = z
  .object({
    format: importFormat,
    imported: z.array(siteRow).describe('Beyond the free slots they are saved paused.'),
    problems: z.array(importProblem),
  })
  .describe('What was imported, and the lines that were not');
export type ImportOutcome = z.infer<typeof importOutcome>;

const settingCodes = [
  'url_required',
  'url_invalid',
  'label_too_long',
  'interval_too_short',
  'interval_too_long',
  'areas_required',
  'too_many_areas',
  'area_id_invalid',
  'area_id_duplicate',
  'area_content_too_long',
  'selector_required',
  'selector_invalid',
  'selector_type_invalid',
  'invalid_area_options',
  'invalid_rules',
  'user_agent_invalid',
  'user_agent_required',
  'user_agent_too_long',
  'viewport_invalid',
  'cookies_too_long',
  'chat_notify_invalid',
  'failure_alert_after_invalid',
  'silence_alert_days_invalid',
  'quiet_mode_invalid',
  'quiet_hours_time_invalid',
  'quiet_hours_day_invalid',
  'discord_webhook_required',
  'discord_webhook_invalid',
  'action_type_invalid',
  'action_value_required',
  'action_value_too_long',
  'too_many_actions',
  'login_verify_invalid',
  'login_cookie_name_required',
  'login_actions_required',
  'fetch_mode_invalid',
  'fetch_mode_needs_browser',
  'content_kind_invalid',
  'content_kind_needs_http',
  'bad_request',
];

/** The error answers of the site routes, by status. */
export const siteRefusals = {
  settings: refusal('A setting refused; field names it', settingCodes),
  notFound: refusal('Not found (also another user’s site)', ['not_found']),
  busy: refusal('Another action on the site is running', ['action_in_progress']),
  resume: refusal('Not resumed', ['action_in_progress', 'no_free_slot', 'account_on_hold']),
  resumeHeld: refusal('Not resumed', ['account_on_hold']),
  register: refusal('Not registered', ['too_many_sites']),
  import: refusal('Nothing to import', ['import_empty', 'import_format_invalid', 'bad_request']),
  badRequest: refusal('Bad request', ['bad_request']),
  signedOut,
};
