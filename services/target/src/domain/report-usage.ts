import { demandOf } from './site-quota.ts';
import { needOf } from './site-row.ts';
import type { TargetUnit } from './target-port.ts';

/** After a change to the user's sites: tells the account what the monitoring ones now use. */
export async function reportUsage(unit: TargetUnit): Promise<void> {
  await unit.publishUsage(demandOf((await unit.activeSites()).map(needOf)));
}
