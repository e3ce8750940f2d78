import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import {
  discordMessages,
  errorLines,
  exitedServices,
  INTERVAL_MS,
  updateDeliveries,
  updateMails,
  useFaultRig,
  waitFor,
  watchSalePage,
} from './fault-rig.ts';

// Issue 6 fault test (a): the notifier dies after the SMTP server took the update mail but
// before the delivery was recorded. A claim of 10 s (the update consumer's ack wait too) keeps
// the recovery short; the default is 120 s.
const CLAIM_SECONDS = 10;
// Each message takes 3 s to accept: the kill lands while the update mail is being accepted.
const useRig = useFaultRig('notifier-killed', {
  smtpAcceptDelayMs: 3_000,
  env: { DELIVERY_CLAIM_SECONDS: String(CLAIM_SECONDS) },
});

describe('the notifier SIGKILLed between sending and recording', () => {
  it('still delivers the update after its restart; the mail it was sending is repeated once, as explained', async () => {
    const rig = useRig();
    await watchSalePage(rig);
    rig.page.setPrice('/sale', '¥980 sale');

    // The verification mail was the first; the second message received whole is the update
    // mail, now held 3 s before the server answers.
    await rig.smtp.waitForReceived(2, INTERVAL_MS + 90_000);
    const killedAt = Date.now();
    await rig.cluster.restart('notifier', 'SIGKILL');

    await waitFor(
      'both deliveries recorded as sent',
      async () => {
        const rows = await updateDeliveries(rig);
        return rows.length === 2 && rows.every((row) => row.status === 'sent');
      },
      120_000,
    );
    const recoveredMs = Date.now() - killedAt;
    // Another claim's length and more: no further copy goes out.
    await sleep((CLAIM_SECONDS + 5) * 1_000);

    const mails = updateMails(rig);
    const posts = discordMessages(rig);
    const rows = await updateDeliveries(rig);
    console.info(
      JSON.stringify({
        scenario: 'notifier SIGKILL mid-send',
        update_mails: mails.length,
        discord_messages: posts.length,
        recovery_ms: recoveredMs,
        deliveries: rows,
      }),
    );
    // The SMTP server took the first copy while the notifier died; nothing recorded it, so the
    // redelivered event sent it again once its claim ran out: the one explained duplicate.
    expect(mails).toHaveLength(2);
    for (const mail of mails) expect(mail.text).toContain('- ¥1,200\n+ ¥980 sale');
    const mailRow = rows.find((row) => row.id.endsWith(':email'));
    expect(mailRow?.attempts).toBeGreaterThanOrEqual(2);
    // Discord went out beside the mail: once, or twice only if the kill fell between its post
    // and its record, which then shows in the delivery's attempts as well.
    expect(posts.length).toBeGreaterThanOrEqual(1);
    expect(posts.length).toBeLessThanOrEqual(2);
    const discordRow = rows.find((row) => row.id.endsWith(':discord'));
    if (posts.length === 2) expect(discordRow?.attempts).toBeGreaterThanOrEqual(2);
    expect(rig.discord.problems).toEqual([]);
    expect(exitedServices(rig)).toEqual([]);
    expect(errorLines(rig)).toEqual([]);
  }, 300_000);
});
