import { z } from 'zod';
import { apiError } from './api-error.ts';

/**
 * One way for every edit to carry the version it started from (docs/api.md#edit-conflicts): the
 * read answers `revision`, the save sends it back. A save over a newer revision is refused with
 * 409 `edit_conflict` and saves nothing. Left out, the save replaces whatever is saved, as it did
 * before revisions existed (API clients that read-modify-write should send it; the SPA always does).
 */
export const editRevision = z
  .number()
  .int()
  .min(0)
  .optional()
  .describe(
    'The revision the edit started from, as the read answered it. A newer saved revision answers 409 edit_conflict; left out, the save applies over whatever is saved.',
  );

/** A read's version: send it back with the next save. */
export const savedRevision = z.number().int().describe('Send it back as `revision` with the next save');

/** A field saved elsewhere since the edit started, with its value now (in the read's shape). */
export const changedField = z.object({
  field: z.string().describe('The field’s name in the read’s answer, e.g. label, interval_minutes, areas'),
  value: z.unknown().describe('Its saved value now, as the read answers it'),
});
export type ChangedField = z.infer<typeof changedField>;

/**
 * 409: saved elsewhere since the edit started. `changed` lists the fields whose saved value now
 * differs from the one sent, with the saved value, so the screen can say what changed and keep
 * what the person typed.
 */
export const editConflict = apiError
  .extend({
    conflict: z.object({
      revision: savedRevision.describe('The saved revision now'),
      changed: z.array(changedField),
    }),
  })
  .meta({ id: 'EditConflict' })
  .describe('Saved elsewhere since the edit started: edit_conflict');
export type EditConflict = z.infer<typeof editConflict>;
