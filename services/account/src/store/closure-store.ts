import { randomUUID } from 'node:crypto';
import { eraseEventTraces, writeEvent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { accountCancelled, accountMailRequested, accountPurged } from '@mimamori/events';
import type { ClosurePort } from '../domain/closure/account-closure.ts';
import { ACCOUNT_SCHEMA } from './migrations.ts';

const S = ACCOUNT_SCHEMA;
// Bounded batches keep each transaction short; the sweeper comes back for the rest.
const BATCH = 50;

export function createClosureStore(db: Db): ClosurePort {
  return {
    close(userId, now, purgeAt) {
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<{ email: string | null; lang: string; timezone: string | null }>(
          `UPDATE ${S}.users SET deleted_at = $2, purge_at = $3 WHERE id = $1 AND deleted_at IS NULL
           RETURNING email, lang, timezone`,
          [userId, now, purgeAt],
        );
        const user = rows[0];
        if (!user) return;
        await tx.query(`UPDATE ${S}.subscriptions SET status = 9 WHERE user_id = $1`, [userId]);
        // The existing path for an ended account: its sites are deleted, its follows dropped and its
        // subscription at the payment provider ended by the consumers of AccountCancelled.
        const eventId = `account-cancelled:${userId}`;
        await writeEvent(tx, S, {
          id: eventId,
          subject: accountCancelled.subject,
          data: accountCancelled.encode({ eventId, userId, cancelledAt: now, reason: 'self_deleted' }),
        });
        if (!user.email) return;
        const mailId = `account-mail:account_deleted:${userId}`;
        await writeEvent(tx, S, {
          id: mailId,
          subject: accountMailRequested.subject,
          data: accountMailRequested.encode({
            eventId: mailId,
            userId,
            to: user.email,
            lang: user.lang,
            kind: 'account_deleted',
            sealedToken: '',
            supportType: '',
            billingDate: purgeAt,
            plan: 0,
            timezone: user.timezone ?? '',
            price: 0,
            currency: '',
            cycle: '',
            chatPlatform: '',
            chatLabel: '',
            chatReason: '',
            workspaceName: '',
            memberRole: '',
            inviterName: '',
            deviceBrowser: '',
            deviceOs: '',
            deviceClientAddress: '',
          }),
        });
      });
    },

    purgeDue(now) {
      return db.transaction(async (tx) => {
        // A purge event already relayed has done its work; its payload still names the user.
        await tx.query(`DELETE FROM ${S}.outbox WHERE subject = $1 AND published_at IS NOT NULL`, [
          accountPurged.subject,
        ]);
        const { rows } = await tx.query<{ id: string; email: string | null }>(
          `SELECT id, email FROM ${S}.users WHERE purge_at <= $1
            ORDER BY purge_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
          [now],
        );
        for (const { id: userId, email } of rows) {
          const gone = await tx.query<{ target_id: string }>(
            `SELECT target_id FROM ${S}.gone_targets WHERE user_id = $1`,
            [userId],
          );
          const targetIds = gone.rows.map((row) => row.target_id);
          // Rows keyed by the user without a reference to users, then the user (the rest cascades).
          await tx.query(`DELETE FROM ${S}.site_usage WHERE user_id = $1`, [userId]);
          if (email)
            await tx.query(`DELETE FROM ${S}.sign_in_failures WHERE account_key = $1`, [
              email.toLowerCase().slice(0, 254),
            ]);
          await tx.query(`DELETE FROM ${S}.users WHERE id = $1`, [userId]);
          await eraseEventTraces(tx, S, [userId, ...targetIds, ...(email ? [email] : [])]);
          // Named by a random id, so no service's record of having applied it names the user.
          const eventId = `account-purged:${randomUUID()}`;
          await writeEvent(tx, S, {
            id: eventId,
            subject: accountPurged.subject,
            data: accountPurged.encode({ eventId, userId, targetIds, purgedAt: now }),
          });
        }
        return rows.map((row) => row.id);
      });
    },
  };
}
