import { z } from 'zod';
import { csrfFailed, refusal, signedOut } from './api-error.ts';
import { editRevision, savedRevision } from './edit-conflict.ts';

// Quiet hours (docs/product.md#quiet-hours): when updates are held and sent as one digest.

export const quietHours = z
  .object({
    from: z.string().describe('Start of the daily window, "HH:MM" in the account’s zone; empty for none.'),
    until: z.string().describe('End of the daily window, "HH:MM" (it may pass midnight); empty for none.'),
    all_day: z.array(z.number().int()).describe('Weekdays quiet all day: 0 Sunday … 6 Saturday.'),
    holidays: z.boolean().describe('Japanese public holidays are quiet all day.'),
    alerts_break_through: z
      .boolean()
      .describe('Failure alerts, recoveries and silence alerts are sent at once even inside quiet hours.'),
  })
  .meta({ id: 'QuietHours' });
export type QuietHoursJson = z.infer<typeof quietHours>;

const quietHoursFields = z.object({
  from: z.string().max(5).nullish(),
  until: z.string().max(5).nullish(),
  all_day: z.array(z.number().int().min(0).max(6)).max(7).nullish(),
  holidays: z.boolean().nullish(),
  alerts_break_through: z.boolean().nullish().describe('Left out: true.'),
});
export const quietHoursBody = quietHoursFields.extend({ revision: editRevision }).nullish();
/** The account's quiet hours as GET and POST /api/v2/quiet-hours answer them: with the settings revision. */
export const accountQuietHours = quietHours
  .extend({
    revision: savedRevision.describe('The account settings’ revision (quiet hours are one of them)'),
  })
  .meta({ id: 'AccountQuietHours' });
export type AccountQuietHoursJson = z.infer<typeof accountQuietHours>;
/** A site's own quiet hours in its settings (quiet_mode "own"). */
export const siteQuietHoursBody = quietHoursFields
  .nullish()
  .describe('The site’s own quiet hours, read with quiet_mode "own"; the account’s shape.');

export const quietHoursRefusals = {
  signedOut,
  csrf: csrfFailed,
  save: refusal('Refused', ['quiet_hours_time_invalid', 'quiet_hours_day_invalid']),
};
