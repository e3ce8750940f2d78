import type { Db } from '@mimamori/db';
import type { InvoiceStore } from '../domain/invoices/invoice-ports.ts';
import { ACCOUNT_SCHEMA } from './migrations.ts';

const S = ACCOUNT_SCHEMA;

export function createInvoiceStore(db: Db): InvoiceStore {
  return {
    async customerOf(userId) {
      const { rows } = await db.query<{ customer_id: string }>(
        `SELECT customer_id FROM ${S}.billing_accounts WHERE user_id = $1`,
        [userId],
      );
      return rows[0]?.customer_id ?? null;
    },

    async recipient(userId) {
      const { rows } = await db.query<{ name: string; revision: string }>(
        `SELECT name, revision FROM ${S}.invoice_recipients WHERE user_id = $1`,
        [userId],
      );
      return rows[0] ? { name: rows[0].name, revision: Number(rows[0].revision) } : null;
    },

    async saveRecipient(userId, name, revision, at) {
      // One statement either way: a first save inserts at revision 1 unless a row exists, a later
      // one updates only the revision the page read, so two tabs never overwrite each other unseen.
      const { rows } =
        revision === 0
          ? await db.query<{ revision: string }>(
              `INSERT INTO ${S}.invoice_recipients (user_id, name, revision, updated_at)
               VALUES ($1, $2, 1, $3) ON CONFLICT (user_id) DO NOTHING RETURNING revision`,
              [userId, name, at],
            )
          : await db.query<{ revision: string }>(
              `UPDATE ${S}.invoice_recipients SET name = $2, revision = revision + 1, updated_at = $4
                WHERE user_id = $1 AND revision = $3 RETURNING revision`,
              [userId, name, revision, at],
            );
      return rows[0] ? Number(rows[0].revision) : null;
    },
  };
}
