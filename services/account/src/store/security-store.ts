import type { Db, Sql } from '@mimamori/db';
import type { PasskeyRecord, SecurityPort } from '../domain/security/security-port.ts';
import { ACCOUNT_SCHEMA } from './migrations.ts';

const S = ACCOUNT_SCHEMA;

interface PasskeyRow {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: Buffer;
  counter: string;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

const toPasskey = (row: PasskeyRow): PasskeyRecord => ({
  id: row.id,
  credentialId: row.credential_id,
  publicKey: new Uint8Array(row.public_key),
  counter: Number(row.counter),
  transports: row.transports,
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

export function createSecurityStore(db: Db): SecurityPort {
  const replaceCodes = async (tx: Sql, userId: string, hashes: string[]) => {
    await tx.query(`DELETE FROM ${S}.recovery_codes WHERE user_id = $1`, [userId]);
    await tx.query(`INSERT INTO ${S}.recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])`, [
      userId,
      hashes,
    ]);
  };
  return {
    async totp(userId) {
      const { rows } = await db.query<{
        sealed_secret: string;
        confirmed_at: Date | null;
        last_step: string;
      }>(`SELECT sealed_secret, confirmed_at, last_step FROM ${S}.totp_factors WHERE user_id = $1`, [userId]);
      const row = rows[0];
      return row
        ? {
            sealedSecret: row.sealed_secret,
            confirmed: row.confirmed_at !== null,
            lastStep: Number(row.last_step),
          }
        : null;
    },

    async startTotp(userId, sealedSecret, now) {
      const { rowCount } = await db.query(
        `INSERT INTO ${S}.totp_factors (user_id, sealed_secret, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE SET sealed_secret = $2, created_at = $3, last_step = 0
           WHERE ${S}.totp_factors.confirmed_at IS NULL`,
        [userId, sealedSecret, now],
      );
      return rowCount > 0;
    },

    async confirmTotp(userId, step, recoveryHashes, now) {
      await db.transaction(async (tx) => {
        await tx.query(`UPDATE ${S}.totp_factors SET confirmed_at = $2, last_step = $3 WHERE user_id = $1`, [
          userId,
          now,
          step,
        ]);
        await replaceCodes(tx, userId, recoveryHashes);
      });
    },

    async useTotpStep(userId, step) {
      // One statement, so two requests with the same code cannot both pass.
      const { rowCount } = await db.query(
        `UPDATE ${S}.totp_factors SET last_step = $2 WHERE user_id = $1 AND last_step < $2`,
        [userId, step],
      );
      return rowCount > 0;
    },

    async removeTotp(userId) {
      await db.transaction(async (tx) => {
        await tx.query(`DELETE FROM ${S}.totp_factors WHERE user_id = $1`, [userId]);
        await tx.query(`DELETE FROM ${S}.recovery_codes WHERE user_id = $1`, [userId]);
      });
    },

    async replaceRecoveryCodes(userId, hashes) {
      await db.transaction((tx) => replaceCodes(tx, userId, hashes));
    },

    async useRecoveryCode(userId, codeHash, now) {
      const { rowCount } = await db.query(
        `UPDATE ${S}.recovery_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL`,
        [userId, codeHash, now],
      );
      return rowCount > 0;
    },

    async recoveryCodesLeft(userId) {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${S}.recovery_codes WHERE user_id = $1 AND used_at IS NULL`,
        [userId],
      );
      return rows[0]?.n ?? 0;
    },

    async passkeys(userId) {
      const { rows } = await db.query<PasskeyRow>(
        `SELECT * FROM ${S}.passkeys WHERE user_id = $1 ORDER BY created_at, id`,
        [userId],
      );
      return rows.map(toPasskey);
    },

    async passkeyByCredential(credentialId) {
      const { rows } = await db.query<PasskeyRow>(`SELECT * FROM ${S}.passkeys WHERE credential_id = $1`, [
        credentialId,
      ]);
      const row = rows[0];
      return row ? { ...toPasskey(row), userId: row.user_id } : null;
    },

    async addPasskey(userId, passkey) {
      await db.query(
        `INSERT INTO ${S}.passkeys (id, user_id, credential_id, public_key, counter, transports, name, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          passkey.id,
          userId,
          passkey.credentialId,
          Buffer.from(passkey.publicKey),
          passkey.counter,
          passkey.transports,
          passkey.name,
          passkey.createdAt,
        ],
      );
    },

    async usePasskey(id, counter, now) {
      await db.query(`UPDATE ${S}.passkeys SET counter = $2, last_used_at = $3 WHERE id = $1`, [
        id,
        counter,
        now,
      ]);
    },

    async removePasskey(userId, id) {
      const { rowCount } = await db.query(`DELETE FROM ${S}.passkeys WHERE user_id = $1 AND id = $2`, [
        userId,
        id,
      ]);
      return rowCount > 0;
    },

    async createPending(ticketHash, pending) {
      await db.query(
        `INSERT INTO ${S}.pending_sign_ins (ticket_hash, user_id, purpose, challenge, expires_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [ticketHash, pending.userId, pending.purpose, pending.challenge, pending.expiresAt],
      );
    },

    async pending(ticketHash, purpose, now) {
      const { rows } = await db.query<{ user_id: string | null; challenge: string; failures: number }>(
        `SELECT user_id, challenge, failures FROM ${S}.pending_sign_ins
          WHERE ticket_hash = $1 AND purpose = $2 AND expires_at > $3`,
        [ticketHash, purpose, now],
      );
      const row = rows[0];
      return row ? { userId: row.user_id, purpose, challenge: row.challenge, failures: row.failures } : null;
    },

    async failPending(ticketHash) {
      const { rows } = await db.query<{ failures: number }>(
        `UPDATE ${S}.pending_sign_ins SET failures = failures + 1 WHERE ticket_hash = $1 RETURNING failures`,
        [ticketHash],
      );
      return rows[0]?.failures ?? Number.MAX_SAFE_INTEGER;
    },

    async deletePending(ticketHash) {
      await db.query(`DELETE FROM ${S}.pending_sign_ins WHERE ticket_hash = $1`, [ticketHash]);
    },

    async sessions(userId, currentHash, now) {
      const { rows } = await db.query<{
        id: string;
        user_agent: string;
        client_address: string;
        created_at: Date;
        last_seen_at: Date | null;
        current: boolean;
      }>(
        `SELECT id, user_agent, client_address, created_at, last_seen_at, token_hash = $2 AS current
           FROM ${S}.sessions WHERE user_id = $1 AND expires_at > $3
          ORDER BY token_hash = $2 DESC, coalesce(last_seen_at, created_at) DESC, id`,
        [userId, currentHash, now],
      );
      return rows.map((row) => ({
        id: row.id,
        userAgent: row.user_agent,
        clientAddress: row.client_address,
        createdAt: row.created_at,
        lastSeenAt: row.last_seen_at ?? row.created_at,
        current: row.current,
      }));
    },

    async describeSession(tokenHash, client, now) {
      await db.query(
        `UPDATE ${S}.sessions SET user_agent = $2, client_address = $3, last_seen_at = $4 WHERE token_hash = $1`,
        [tokenHash, client.userAgent, client.clientAddress, now],
      );
    },

    async endSession(userId, id) {
      const { rowCount } = await db.query(`DELETE FROM ${S}.sessions WHERE user_id = $1 AND id = $2`, [
        userId,
        id,
      ]);
      return rowCount > 0;
    },

    async endOtherSessions(userId, keepHash) {
      const { rowCount } = await db.query(
        `DELETE FROM ${S}.sessions WHERE user_id = $1 AND token_hash <> $2`,
        [userId, keepHash],
      );
      return rowCount;
    },

    async rememberDevice(userId, deviceHash, now) {
      return db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`devices:${userId}`]);
        const { rows } = await tx.query<{ known: boolean; any: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM ${S}.known_devices WHERE user_id = $1 AND device_hash = $2) AS known,
                  EXISTS (SELECT 1 FROM ${S}.known_devices WHERE user_id = $1) AS any`,
          [userId, deviceHash],
        );
        if (rows[0]?.known) return 'known' as const;
        await tx.query(
          `INSERT INTO ${S}.known_devices (user_id, device_hash, first_seen_at) VALUES ($1, $2, $3)`,
          [userId, deviceHash, now],
        );
        return rows[0]?.any ? ('new' as const) : ('first' as const);
      });
    },
  };
}
