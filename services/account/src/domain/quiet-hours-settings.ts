import { type QuietHours, quietHoursProblem } from '@mimamori/quiet-hours';
import type { AccountDeps } from './account-deps.ts';
import { AccountProblem, refuseIf } from './account-problem.ts';

/**
 * Saves the account's quiet hours (docs/product.md#quiet-hours) as entered, weekdays in order;
 * refused with quiet_hours_time_invalid or quiet_hours_day_invalid, and with edit_conflict when
 * `expectedRevision` is not the saved one (docs/product.md#edit-conflicts).
 */
export async function saveQuietHours(
  userId: string,
  input: QuietHours,
  deps: Pick<AccountDeps, 'accounts'>,
  expectedRevision?: number,
): Promise<{ quiet: QuietHours; revision: number }> {
  const quiet: QuietHours = {
    from: input.from,
    until: input.until,
    allDay: [...input.allDay].sort((a, b) => a - b),
    holidays: input.holidays,
    alertsBreakThrough: input.alertsBreakThrough,
  };
  refuseIf(quietHoursProblem(quiet));
  const revision = await deps.accounts.setQuietHours(userId, quiet, expectedRevision);
  if (revision === null) throw new AccountProblem('conflict', 'edit_conflict');
  return { quiet, revision };
}
