import type { ChatPlatform } from '@mimamori/chat/port';
import type { Db, Sql } from '@mimamori/db';
import type { SecretBox } from '@mimamori/secret-box';
import type { ChatLinkRecord, ChatLinkStore } from '../domain/chat-links.ts';
import { writeAccountMail } from './account-mail-writer.ts';
import { ACCOUNT_SCHEMA } from './migrations.ts';

const S = ACCOUNT_SCHEMA;

interface ChatLinkRow {
  id: string;
  user_id: string;
  platform: ChatPlatform;
  target_id: string;
  label: string;
  sealed_credentials: string;
  digests: string[];
  status: 'linked' | 'broken';
  broken_reason: string;
  broken_at: Date | null;
  created_at: Date;
  version: number;
}

const toRecord = (row: ChatLinkRow): ChatLinkRecord => ({
  id: row.id,
  userId: row.user_id,
  platform: row.platform,
  targetId: row.target_id,
  label: row.label,
  sealedCredentials: row.sealed_credentials,
  digests: row.digests,
  status: row.status,
  brokenReason: row.broken_reason,
  brokenAt: row.broken_at,
  createdAt: row.created_at,
  version: row.version,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A deleted site's own chat links; the account-wide ones stay. */
export async function deleteSiteChatLinks(sql: Sql, userId: string, targetId: string): Promise<void> {
  if (!UUID.test(userId) || !targetId) return;
  await sql.query(`DELETE FROM ${S}.chat_links WHERE user_id = $1 AND target_id = $2`, [userId, targetId]);
}

/** Every statement about a link names its user: one account's link ids mean nothing for another's. */
export function createChatLinkStore(db: Db, box: SecretBox): ChatLinkStore {
  return {
    async list(userId) {
      const { rows } = await db.query<ChatLinkRow>(
        `SELECT * FROM ${S}.chat_links WHERE user_id = $1 ORDER BY created_at, id`,
        [userId],
      );
      return rows.map(toRecord);
    },
    async find(userId, id) {
      if (!UUID.test(id) || !UUID.test(userId)) return null;
      const { rows } = await db.query<ChatLinkRow>(
        `SELECT * FROM ${S}.chat_links WHERE user_id = $1 AND id = $2`,
        [userId, id],
      );
      return rows[0] ? toRecord(rows[0]) : null;
    },
    async insert(record) {
      await db.query(
        `INSERT INTO ${S}.chat_links
           (id, user_id, platform, target_id, label, sealed_credentials, digests, status, created_at, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'linked', $8, 1)`,
        [
          record.id,
          record.userId,
          record.platform,
          record.targetId,
          record.label,
          record.sealedCredentials,
          record.digests,
          record.createdAt,
        ],
      );
    },
    async relink(userId, id, next) {
      if (!UUID.test(id)) return false;
      const { rowCount } = await db.query(
        `UPDATE ${S}.chat_links
            SET label = $3, sealed_credentials = $4, digests = $5, status = 'linked', broken_reason = '',
                broken_at = NULL, broken_mail_sent = false, version = version + 1
          WHERE user_id = $1 AND id = $2`,
        [userId, id, next.label, next.sealedCredentials, next.digests],
      );
      return rowCount > 0;
    },
    async delete(userId, id) {
      if (!UUID.test(id)) return false;
      const { rowCount } = await db.query(`DELETE FROM ${S}.chat_links WHERE user_id = $1 AND id = $2`, [
        userId,
        id,
      ]);
      return rowCount > 0;
    },
    async markBroken(userId, id, reason, at, mail) {
      if (!UUID.test(id)) return false;
      return db.transaction(async (tx) => {
        // The row lock makes two dead answers at once one breakage and one mail.
        const { rowCount } = await tx.query(
          `UPDATE ${S}.chat_links
              SET status = 'broken', broken_reason = $3, broken_at = $4, broken_mail_sent = $5,
                  version = version + 1
            WHERE user_id = $1 AND id = $2 AND status = 'linked'`,
          [userId, id, reason, at, mail !== null],
        );
        if (rowCount === 0) return false;
        if (mail) await writeAccountMail(tx, box, mail);
        return true;
      });
    },
    async findByDigests(platform, digests) {
      const { rows } = await db.query<ChatLinkRow>(
        `SELECT * FROM ${S}.chat_links WHERE platform = $1 AND digests @> $2::text[]`,
        [platform, digests],
      );
      return rows.map(toRecord);
    },
    async insertCode(code) {
      await db.query(
        `INSERT INTO ${S}.chat_link_codes (code_hash, user_id, platform, target_id, relink_id, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [code.codeHash, code.userId, code.platform, code.targetId, code.relinkId, code.expiresAt],
      );
    },
    async takeCode(codeHash, platform, now, userId) {
      const { rows } = await db.query<{
        code_hash: string;
        user_id: string;
        platform: ChatPlatform;
        target_id: string;
        relink_id: string;
        expires_at: Date;
      }>(
        `UPDATE ${S}.chat_link_codes SET used_at = $3
          WHERE code_hash = $1 AND platform = $2 AND used_at IS NULL AND expires_at > $3
            AND ($4 = '' OR user_id::text = $4)
          RETURNING code_hash, user_id, platform, target_id, relink_id, expires_at`,
        [codeHash, platform, now, userId ?? ''],
      );
      const row = rows[0];
      return row
        ? {
            codeHash: row.code_hash,
            userId: row.user_id,
            platform: row.platform,
            targetId: row.target_id,
            relinkId: row.relink_id,
            expiresAt: row.expires_at,
          }
        : null;
    },
  };
}
