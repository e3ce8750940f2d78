import { describe, it } from 'vitest';
import { changePriceDuringCheck, expectUpdateDeliveredOnce, useFaultRig } from './fault-rig.ts';

// Issue 6 fault test (c): the PostgreSQL of record restarts (fast shutdown: every connection
// cut) while the check that finds the update is running.
const rig = useFaultRig('postgres-restarted');

describe('PostgreSQL restarted mid-pipeline', () => {
  it('the services reconnect and the update is delivered, once per channel', async () => {
    await changePriceDuringCheck(rig());

    const faultAt = Date.now();
    await rig().postgres.restart();
    await expectUpdateDeliveredOnce(rig(), 'PostgreSQL restarted mid-pipeline', faultAt);
  }, 400_000);
});
