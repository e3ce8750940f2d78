import type { Db } from '@mimamori/db';
import type { SecretBox } from '@mimamori/secret-box';
import type { ApiAccessPort, ApiScope, ApiTokenRecord } from '../domain/api-access.ts';
import { hashToken } from '../domain/one-time-token.ts';
import { ACCOUNT_SCHEMA } from './migrations.ts';

const S = ACCOUNT_SCHEMA;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A use within this long of the last noted one is not written again: one write a minute at most. */
const TOUCH_EVERY_MS = 60_000;

interface ApiTokenRow {
  id: string;
  user_id: string;
  name: string;
  scopes: string[];
  created_at: Date;
  expires_at: Date;
  last_used_at: Date | null;
}

const toRecord = (row: ApiTokenRow): ApiTokenRecord => ({
  id: row.id,
  userId: row.user_id,
  name: row.name,
  scopes: row.scopes.filter((scope): scope is ApiScope => scope === 'read' || scope === 'write'),
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
});

/** The feed token is sealed to its account: a sealed value copied to another row opens nowhere. */
const feedContext = (userId: string) => `feed-token:${userId}`;

/** Every statement about a user's tokens names the user: one account's ids mean nothing for another's. */
export function createApiAccessStore(db: Db, box: SecretBox): ApiAccessPort {
  return {
    async listApiTokens(userId) {
      const { rows } = await db.query<ApiTokenRow>(
        `SELECT * FROM ${S}.api_tokens WHERE user_id = $1 ORDER BY created_at, id`,
        [userId],
      );
      return rows.map(toRecord);
    },
    insertApiToken(record, tokenHash, max) {
      return db.transaction(async (tx) => {
        // The account's row is locked so two creations at once cannot both pass the count.
        await tx.query(`SELECT 1 FROM ${S}.users WHERE id = $1 FOR UPDATE`, [record.userId]);
        const { rows } = await tx.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${S}.api_tokens WHERE user_id = $1 AND expires_at > $2`,
          [record.userId, record.createdAt],
        );
        if ((rows[0]?.n ?? 0) >= max) return false;
        await tx.query(
          `INSERT INTO ${S}.api_tokens (id, user_id, name, token_hash, scopes, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [
            record.id,
            record.userId,
            record.name,
            tokenHash,
            record.scopes,
            record.createdAt,
            record.expiresAt,
          ],
        );
        return true;
      });
    },
    async deleteApiToken(userId, id) {
      if (!UUID.test(id)) return false;
      const { rowCount } = await db.query(`DELETE FROM ${S}.api_tokens WHERE user_id = $1 AND id = $2`, [
        userId,
        id,
      ]);
      return (rowCount ?? 0) > 0;
    },
    async findApiToken(tokenHash, now) {
      const { rows } = await db.query<ApiTokenRow & { deleted_at: Date | null }>(
        `SELECT t.*, u.deleted_at
           FROM ${S}.api_tokens t JOIN ${S}.users u ON u.id = t.user_id
          WHERE t.token_hash = $1 AND t.expires_at > $2`,
        [tokenHash, now],
      );
      const row = rows[0];
      return row ? { ...toRecord(row), deleted: row.deleted_at !== null } : null;
    },
    async touchApiToken(id, at) {
      await db.query(
        `UPDATE ${S}.api_tokens SET last_used_at = $2
          WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $3)`,
        [id, at, new Date(at.getTime() - TOUCH_EVERY_MS)],
      );
    },
    async findFeedToken(userId) {
      const { rows } = await db.query<{ sealed_token: string }>(
        `SELECT sealed_token FROM ${S}.feed_tokens WHERE user_id = $1`,
        [userId],
      );
      const sealed = rows[0]?.sealed_token;
      return sealed ? box.open(sealed, feedContext(userId)) : null;
    },
    async replaceFeedToken(userId, token, at) {
      await db.query(
        `INSERT INTO ${S}.feed_tokens (user_id, token_hash, sealed_token, rotated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id) DO UPDATE
           SET token_hash = EXCLUDED.token_hash, sealed_token = EXCLUDED.sealed_token, rotated_at = EXCLUDED.rotated_at`,
        [userId, hashToken(token), box.seal(token, feedContext(userId)), at],
      );
    },
    async findFeedOwner(tokenHash) {
      const { rows } = await db.query<{ user_id: string }>(
        `SELECT f.user_id FROM ${S}.feed_tokens f JOIN ${S}.users u ON u.id = f.user_id
          WHERE f.token_hash = $1 AND u.deleted_at IS NULL`,
        [tokenHash],
      );
      return rows[0]?.user_id ?? null;
    },
  };
}
