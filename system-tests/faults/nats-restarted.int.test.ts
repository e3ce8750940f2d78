import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'vitest';
import { changePriceDuringCheck, expectUpdateDeliveredOnce, useFaultRig } from './fault-rig.ts';

// Issue 6 fault test (b): NATS (JetStream, its store kept) is down for 25 s and comes back
// while the check that finds the update is running.
const rig = useFaultRig('nats-restarted');

describe('NATS restarted mid-pipeline', () => {
  it('the services reconnect and the update is delivered, once per channel', async () => {
    await changePriceDuringCheck(rig());

    const faultAt = Date.now();
    await rig().nats.halt();
    // Longer than the client's default reconnect budget (10 tries 2 s apart).
    await sleep(25_000);
    await rig().nats.start();
    const backAt = Date.now();
    // Recovery counts from NATS being back.
    await expectUpdateDeliveredOnce(rig(), 'NATS down 25 s mid-pipeline', backAt, {
      outage_ms: backAt - faultAt,
    });
  }, 400_000);
});
