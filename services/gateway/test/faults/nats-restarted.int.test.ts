import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  discordMessages,
  exitedServices,
  type FaultRig,
  INTERVAL_MS,
  startFaultRig,
  updateDeliveries,
  updateMails,
  waitFor,
  watchSalePage,
} from './fault-rig.ts';

// Issue 6 fault test (b): NATS (JetStream, its store kept) is down for 25 s and comes back
// while the check that finds the update is running.
let rig: FaultRig;

beforeAll(async () => {
  rig = await startFaultRig('nats-restarted');
}, 180_000);

afterAll(async () => {
  await rig?.close();
});

describe('NATS restarted mid-pipeline', () => {
  it('the services reconnect and the update is delivered, once per channel', async () => {
    await watchSalePage(rig);
    const loadsBefore = rig.page.loads('/sale');
    rig.page.setPrice('/sale', '¥980 sale');
    await waitFor(
      'the check loading the changed page',
      () => rig.page.loads('/sale') > loadsBefore,
      INTERVAL_MS + 60_000,
    );

    const faultAt = Date.now();
    await rig.nats.halt();
    // Longer than the client's default reconnect budget (10 tries 2 s apart).
    await sleep(25_000);
    await rig.nats.start();
    const backAt = Date.now();
    await waitFor(
      'the update by e-mail and Discord',
      async () => updateMails(rig).length >= 1 && discordMessages(rig).length >= 1,
      180_000,
    );
    const recoveredMs = Date.now() - backAt;
    const outageMs = backAt - faultAt;
    await sleep(15_000);

    const rows = await updateDeliveries(rig);
    console.info(
      JSON.stringify({
        scenario: 'NATS down 25 s mid-pipeline',
        update_mails: updateMails(rig).length,
        discord_messages: discordMessages(rig).length,
        outage_ms: outageMs,
        recovery_ms_after_nats_back: recoveredMs,
        deliveries: rows,
      }),
    );
    expect(exitedServices(rig)).toEqual([]);
    expect(updateMails(rig)).toHaveLength(1);
    expect(updateMails(rig)[0]?.text).toContain('- ¥1,200\n+ ¥980 sale');
    expect(discordMessages(rig)).toHaveLength(1);
    expect(rows.map((row) => row.status)).toEqual(['sent', 'sent']);
    expect(rig.discord.problems).toEqual([]);
    // Every service answers ready again.
    for (const [service, opsUrl] of rig.cluster.opsUrls) {
      expect((await fetch(new URL('readyz', opsUrl))).status, service).toBe(200);
    }
  }, 400_000);
});
