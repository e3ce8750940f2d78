import { writeEvent } from '@mimamori/bus';
import type { Db } from '@mimamori/db';
import { accountCreated } from '@mimamori/events';
import type { AccountWriter, NewAccount } from '../domain/create-account.ts';
import type { AccountView, SessionReader } from '../domain/user-info.ts';
import { ACCOUNT_SCHEMA } from './migrations.ts';

const UNIQUE_VIOLATION = '23505';

export function createAccountStore(db: Db): AccountWriter & SessionReader {
  return {
    async insertAccount(account: NewAccount) {
      try {
        await db.transaction(async (tx) => {
          await tx.query(
            `INSERT INTO ${ACCOUNT_SCHEMA}.users (id, email, password_hash, lang, created_at)
             VALUES ($1, $2, $3, $4, $5)`,
            [account.id, account.email, account.passwordHash, account.lang, account.createdAt],
          );
          // The event id says what the event is about, so a retried write is the same event.
          const eventId = `account-created:${account.id}`;
          await writeEvent(tx, ACCOUNT_SCHEMA, {
            id: eventId,
            subject: accountCreated.subject,
            data: accountCreated.encode({
              eventId,
              userId: account.id,
              email: account.email,
              lang: account.lang,
              createdAt: account.createdAt,
            }),
          });
        });
        return 'created';
      } catch (error) {
        if ((error as { code?: string }).code === UNIQUE_VIOLATION) return 'email_taken';
        throw error;
      }
    },

    async findAccountBySessionTokenHash(tokenHash: string, now: Date): Promise<AccountView | null> {
      const { rows } = await db.query<AccountView>(
        `SELECT u.id, u.email, u.lang, u.timezone, u.currency
           FROM ${ACCOUNT_SCHEMA}.sessions s JOIN ${ACCOUNT_SCHEMA}.users u ON u.id = s.user_id
          WHERE s.token_hash = $1 AND s.expires_at > $2`,
        [tokenHash, now],
      );
      return rows[0] ?? null;
    },
  };
}
