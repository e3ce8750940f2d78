import { z } from 'zod';
import { refusal, signedOut } from './api-error.ts';
import { siteRow } from './site-row.ts';

/** The most checks one history page holds. */
export const HISTORY_PAGE_MAX = 100;

const id = z.string().min(1).max(100);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
const at = z.iso.datetime().nullable();

export const historyFilter = z.enum(['all', 'update', 'error']);
export type HistoryFilter = z.infer<typeof historyFilter>;
export const historyDirection = z.enum(['older', 'newer']);
export type HistoryDirection = z.infer<typeof historyDirection>;

export const historyQuery = z.object({
  id,
  filter: historyFilter.default('all'),
  day: day.optional().describe('One day only (YYYY-MM-DD), in the user’s time zone.'),
  cursor: z.string().max(500).optional().describe('older_cursor or newer_cursor.'),
  direction: historyDirection.default('older'),
  size: z.coerce.number().int().min(1).max(HISTORY_PAGE_MAX).default(20),
});
export type HistoryQuery = z.infer<typeof historyQuery>;

export const registrationDataQuery = z.object({ id });

/** A picture is named by what it shows; the gateway looks it up again in the caller's own history. */
export const screenshotQuery = z.discriminatedUnion('image', [
  z.object({
    id,
    image: z.enum(['before', 'after']),
    update: z.string().min(1).max(200).describe('The update id.'),
    day: day.describe('The UTC day of the check.'),
  }),
  z.object({ id, image: z.literal('registration_page') }),
  z.object({
    id,
    image: z.literal('registration_area'),
    area: z.string().min(1).max(64).describe('The area id.'),
  }),
]);
export type ScreenshotQuery = z.infer<typeof screenshotQuery>;

/** A piece of a diff line; changed pieces are the highlighted added or removed text. */
export const diffSegment = z.object({ text: z.string(), changed: z.boolean().describe('Highlighted.') });
export type DiffSegment = z.infer<typeof diffSegment>;
export const diffSide = z.object({
  line: z.number().int().describe('1-based line in the normalised content.'),
  segments: z.array(diffSegment),
});
export type DiffSide = z.infer<typeof diffSide>;

/**
 * A row of the watch engine's diff. 'modified' pairs an old and a new line; `changed` false marks
 * context (including moves the area options do not count), which is never highlighted.
 */
export const diffRow = z.object({
  kind: z.enum(['same', 'modified', 'added', 'removed']),
  changed: z.boolean(),
  old: diffSide.nullable(),
  new: diffSide.nullable(),
});
export type DiffRow = z.infer<typeof diffRow>;

/** An update's or area's one line in each language (docs/product.md#summary). */
export const summaryLine = z.object({ ja: z.string(), en: z.string() });

export const areaChange = z.object({
  area_id: z.string(),
  label: z.string(),
  diff_text: z.string().describe("'+ ', '- ', '  ' lines, as the notification carried."),
  added: z.array(z.string()),
  removed: z.array(z.string()),
  rows: z.array(diffRow).describe('Rows of the inline and side-by-side views.'),
  summary: summaryLine.describe("The area's change in one line."),
});
export type AreaUpdate = z.infer<typeof areaChange>;

export const ruleOperand = z.enum(['all', 'new', 'old']);

export const matchedCondition = z.object({
  group_index: z.number().int(),
  condition_index: z.number().int(),
  area_id: z.string(),
  operand: ruleOperand,
  operator: z.string(),
  value: z.string(),
});
export type MatchedCondition = z.infer<typeof matchedCondition>;

/**
 * Codes a failed check carries: the crawler's (proto CheckError) and the watch engine's. Each has
 * a message in the SPA's catalogue under `errors.<code>`.
 */
export const CHECK_ERROR_CODES = [
  'unreachable',
  'blocked_by_robot',
  'timeout',
  'http_status',
  'refused_address',
  'too_large',
  'too_many_redirects',
  'element_not_found',
  'login_failed',
  'action_failed',
  'browser_crashed',
  'invalid_job',
  'area_empty',
  'invalid_area_options',
  'screenshot_failed',
] as const;

export const checkError = z.object({
  code: z.string().describe(`The crawler’s or watch engine’s code: ${CHECK_ERROR_CODES.join(', ')}`),
  message_key: z.string().describe('errors.<code>; errors.check_failed for a code not listed.'),
  detail: z.string().describe('Names the selector, status or address.'),
  http_status: z.number().int().optional().describe('With http_status: what the site answered.'),
});
export type CheckError = z.infer<typeof checkError>;

const imageUrl = z
  .string()
  .nullable()
  .describe('Path of the picture under /api/v2/screenshot; null without one.');

export const siteUpdate = z.object({
  update_id: z.string(),
  summary: summaryLine.describe(
    'What the update changed, in one line: the first changed area, and how many more.',
  ),
  detected_at: at,
  notify: z.boolean().describe('Whether the rule groups said to notify.'),
  matched: z.array(matchedCondition),
  areas: z.array(areaChange),
  screenshots: z.object({ before: imageUrl, after: imageUrl }),
});
export type TargetUpdate = z.infer<typeof siteUpdate>;

export const historyOutcome = z.enum(['no_change', 'update', 'error']);
export type HistoryOutcome = z.infer<typeof historyOutcome>;

export const historyEntry = z.object({
  check_id: z.string(),
  due_at: at,
  checked_at: at,
  outcome: historyOutcome,
  error: checkError.nullable(),
  update: siteUpdate.nullable(),
});
export type HistoryEntry = z.infer<typeof historyEntry>;

export const historyPage = z
  .object({
    target: siteRow,
    filter: historyFilter,
    day: z.string().nullable(),
    time_zone: z.string().describe('The user’s, which the day is read in.'),
    entries: z.array(historyEntry),
    older_cursor: z.string().nullable(),
    newer_cursor: z.string().nullable(),
  })
  .describe('A page of checks');
export type HistoryPage = z.infer<typeof historyPage>;

export const registrationArea = z.object({
  area_id: z.string(),
  label: z.string(),
  text: z.string().describe('As the watch engine compares it.'),
  recorded_at: at,
  screenshot: imageUrl,
});
export type RegistrationArea = z.infer<typeof registrationArea>;

export const registrationData = z
  .object({
    target: siteRow,
    areas: z.array(registrationArea),
    page_screenshot: imageUrl,
  })
  .describe('Areas in the order they were first recorded');
export type RegistrationData = z.infer<typeof registrationData>;

/** What the account's history takes (docs/product.md#history), for the account screen. */
export const storageUsed = z
  .object({
    used_bytes: z.number().int().describe('row_bytes + blob_bytes'),
    row_bytes: z.number().int().describe('Checks, updates and area versions as stored.'),
    blob_bytes: z.number().int().describe('The screenshots and update pictures they keep.'),
  })
  .meta({ id: 'StorageUsed' })
  .describe('Storage used');
export type StorageUsed = z.infer<typeof storageUsed>;

export const historyRefusals = {
  badRequest: refusal('Bad request; field names the parameter', ['bad_request', 'invalid_argument']),
  notFound: refusal('Not found (also another user’s site)', ['not_found']),
  signedOut,
};
