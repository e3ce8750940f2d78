import { openPostgres } from '@mimamori/db';
import { blobKeys, testNatsUrl } from '@mimamori/test-fixtures';
import { afterAll, describe, it } from 'vitest';
import { exportThenDelete } from './rig/deletion-scenario.ts';
import { useSystemRig } from './rig/system-rig.ts';
import { waitFor } from './rig/wait-for.ts';

// Export and self-deletion in cluster mode: every service its own process, PostgreSQL, JetStream
// and its object store for the pictures, SMTP. The account service's grace period is a few seconds
// here (ACCOUNT_PURGE_GRACE_DAYS), so the purge follows the deletion while the test watches.
const GRACE_DAYS = 0.0001;
const rig = useSystemRig('account-deletion', () => ({
  env: { ACCOUNT_PURGE_GRACE_DAYS: String(GRACE_DAYS), TRIAL_SWEEP_INTERVAL_MS: '500' },
}));
let db: ReturnType<typeof openPostgres> | undefined;
afterAll(async () => {
  await db?.close();
});

describe('export and self-deletion in cluster mode', () => {
  it('exports everything, deletes the account, and after the grace period no row or blob names it', async () => {
    db = openPostgres(rig().database.url, { max: 1 });
    await exportThenDelete(
      {
        url: rig().cluster.url,
        page: rig().page,
        db,
        async mailText(to, subject) {
          const mail = await waitFor(
            `a mail to ${to} matching ${subject}`,
            () =>
              rig().smtp.messages.findLast(
                (message) => JSON.stringify(message.to).includes(to) && subject.test(message.subject ?? ''),
              ),
            60_000,
          );
          return mail.text ?? '';
        },
        async blobsNaming(needles) {
          const keys = await blobKeys(testNatsUrl(), `${rig().namespace}_mimamori_blobs`);
          return keys.filter((key) => needles.some((needle) => key.includes(needle)));
        },
        // The short grace period passes while the scan waits.
        passGrace: async () => {},
      },
      'deleted-cluster@example.jp',
    );
  }, 240_000);
});
