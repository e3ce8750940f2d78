import { z } from 'zod';

/** Version 1 sites (whole page, imported) live under /api; version 2 sites under /api/v2. */
export const siteVersion = z.union([z.literal(1), z.literal(2)]);
export type TargetVersion = z.infer<typeof siteVersion>;

const at = z.iso.datetime().nullable();

/** What keeps failing, in the words of docs/product.md#failure-alerts. */
export const failureKind = z.enum(['blocked', 'unreachable', 'element_not_found', 'login_failed', 'timeout']);
export type FailureKind = z.infer<typeof failureKind>;

/** A target-list row with its JSON keys (docs/product.md#target-list); the one HTTP definition of it. */
export const siteRow = z
  .object({
    id: z.string(),
    ver: siteVersion,
    no: z.number().int().describe('Registration order in the user’s list.'),
    label: z.string(),
    url: z.string(),
    valid: z.boolean().describe('Monitoring; false when paused.'),
    new: z.boolean(),
    proxy: z.boolean(),
    updated: at,
    checked: at,
    resumable: z.boolean().describe('Paused, and a free slot of the plan exists to resume it.'),
    paused_for_hold: z
      .boolean()
      .describe('Paused by the account’s hold; POST /api/v2/resume_held resumes these once it is lifted.'),
    interval_minutes: z.number().int(),
    failing: z
      .object({
        since: z.iso
          .datetime()
          .describe(
            "When the run's first failed check finished: its time in the history, as the alert names it.",
          ),
        kind: failureKind,
      })
      .nullable()
      .describe('Set while checks keep failing (docs/product.md#failure-alerts).'),
  })
  .meta({ id: 'TargetRow', description: 'A target-list row (docs/product.md#target-list).' });

export type TargetRow = z.infer<typeof siteRow>;
