import type { Db, Sql } from '@mimamori/db';
import type { WebhookRecord, WebhookStore } from '../domain/webhooks.ts';
import { ACCOUNT_SCHEMA } from './migrations.ts';

const S = ACCOUNT_SCHEMA;

interface WebhookRow {
  id: string;
  user_id: string;
  target_id: string;
  url: string;
  sealed_secret: string;
  created_at: Date;
  secret_rotated_at: Date;
}

const toRecord = (row: WebhookRow): WebhookRecord => ({
  id: row.id,
  userId: row.user_id,
  targetId: row.target_id,
  url: row.url,
  sealedSecret: row.sealed_secret,
  createdAt: row.created_at,
  secretRotatedAt: row.secret_rotated_at,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A deleted site's own webhooks; the account-wide ones stay. */
export async function deleteSiteWebhooks(sql: Sql, userId: string, targetId: string): Promise<void> {
  if (!UUID.test(userId) || !targetId) return;
  await sql.query(`DELETE FROM ${S}.webhooks WHERE user_id = $1 AND target_id = $2`, [userId, targetId]);
}

/** Every statement names the user: one account's webhook ids mean nothing for another's. */
export function createWebhookStore(db: Db): WebhookStore {
  return {
    async list(userId) {
      const { rows } = await db.query<WebhookRow>(
        `SELECT * FROM ${S}.webhooks WHERE user_id = $1 ORDER BY created_at, id`,
        [userId],
      );
      return rows.map(toRecord);
    },
    async find(userId, id) {
      if (!UUID.test(id)) return null;
      const { rows } = await db.query<WebhookRow>(
        `SELECT * FROM ${S}.webhooks WHERE user_id = $1 AND id = $2`,
        [userId, id],
      );
      return rows[0] ? toRecord(rows[0]) : null;
    },
    async insert(record) {
      await db.query(
        `INSERT INTO ${S}.webhooks (id, user_id, target_id, url, sealed_secret, created_at, secret_rotated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          record.id,
          record.userId,
          record.targetId,
          record.url,
          record.sealedSecret,
          record.createdAt,
          record.secretRotatedAt,
        ],
      );
    },
    async replaceSecret(userId, id, sealedSecret, at) {
      if (!UUID.test(id)) return false;
      const { rowCount } = await db.query(
        `UPDATE ${S}.webhooks SET sealed_secret = $3, secret_rotated_at = $4 WHERE user_id = $1 AND id = $2`,
        [userId, id, sealedSecret, at],
      );
      return rowCount > 0;
    },
    async delete(userId, id) {
      if (!UUID.test(id)) return false;
      const { rowCount } = await db.query(`DELETE FROM ${S}.webhooks WHERE user_id = $1 AND id = $2`, [
        userId,
        id,
      ]);
      return rowCount > 0;
    },
  };
}
