import type { TargetUnit } from './target-port.ts';
import { demandOf } from './target-quota.ts';
import { needOf } from './target-row.ts';

/** After a change to the user's sites: tells the account what the monitoring ones now use. */
export async function reportUsage(unit: TargetUnit): Promise<void> {
  await unit.publishUsage(demandOf((await unit.activeTargets()).map(needOf)));
}
