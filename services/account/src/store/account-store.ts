import { writeEvent } from '@mimamori/bus';
import type { Db, Sql } from '@mimamori/db';
import { accountCreated } from '@mimamori/events';
import { NO_QUIET_HOURS, type QuietHours } from '@mimamori/quiet-hours';
import type { SecretBox } from '@mimamori/secret-box';
import type { AccountMail } from '../domain/account-mail.ts';
import type { AccountPort, NewAccount, ProfileChange, SignInIdentity } from '../domain/account-port.ts';
import type { AccountRecord, DiscordState, MailAddress } from '../domain/account-record.ts';
import type { TokenKind } from '../domain/one-time-token.ts';
import { isWorkspaceRole } from '../domain/workspace-role.ts';
import { writeAccountMail } from './account-mail-writer.ts';
import { ACCOUNT_COLUMNS, type AccountRow, toAccountRecord } from './account-row.ts';
import { createApiAccessStore } from './api-access-store.ts';
import { ACCOUNT_SCHEMA } from './migrations.ts';
import { loadTargetDemand } from './target-usage-store.ts';

const S = ACCOUNT_SCHEMA;
const UNIQUE_VIOLATION = '23505';

interface IdentityRow {
  id: string;
  password_hash: string | null;
  email_verified_at: Date | null;
  deleted_at: Date | null;
  lang: string;
  email: string | null;
}

function toIdentity(row: IdentityRow | undefined): SignInIdentity | null {
  if (!row) return null;
  return {
    id: row.id,
    passwordHash: row.password_hash,
    emailVerified: row.email_verified_at !== null,
    deleted: row.deleted_at !== null,
    lang: row.lang === 'en' ? 'en' : 'ja',
    email: row.email,
  };
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === UNIQUE_VIOLATION;

/**
 * docs/product.md#edit-conflicts. Each save raises the settings revision and records it against
 * the settings it wrote (`fields`, the parameter holding their names).
 */
const raiseRevision = (fields: string) => `settings_revision = settings_revision + 1,
  settings_changed_at = settings_changed_at
    || (SELECT coalesce(jsonb_object_agg(field, settings_revision + 1), '{}') FROM unnest(${fields}::text[]) AS field)`;
/**
 * A save naming a revision is refused when one of its own settings was written after it; compared
 * and written in the one statement, so two saves cannot both pass. Without one it applies.
 */
const unchangedSince = (revision: string, fields: string) => `(${revision}::bigint IS NULL OR NOT EXISTS (
  SELECT 1 FROM jsonb_each_text(settings_changed_at) AS changed
   WHERE changed.key = ANY(${fields}::text[]) AND changed.value::bigint > ${revision}))`;

export function createAccountStore(db: Db, box: SecretBox): AccountPort {
  const identity = `id, password_hash, email_verified_at, deleted_at, lang, email`;
  return {
    ...createApiAccessStore(db, box),
    async insertAccount(account: NewAccount, mail?: AccountMail) {
      try {
        await db.transaction(async (tx) => {
          await tx.query(
            `INSERT INTO ${S}.users (id, email, password_hash, name, lang, timezone, x_subject, created_at, currency)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
            [
              account.id,
              account.email,
              account.passwordHash,
              account.name,
              account.lang,
              account.timezone,
              account.xSubject,
              account.createdAt,
              account.currency,
            ],
          );
          // A new account is its person's personal workspace, which they own (ADR 0033).
          await tx.query(
            `INSERT INTO ${S}.memberships (workspace_id, person_id, role, created_at) VALUES ($1, $1, 'owner', $2)`,
            [account.id, account.createdAt],
          );
          const sub = account.subscription;
          await tx.query(
            `INSERT INTO ${S}.subscriptions (user_id, plan, cycle, options, status, trial_ends_at, delete_at, has_card)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
            [
              account.id,
              sub.plan,
              sub.cycle,
              sub.options,
              sub.status,
              sub.trialEndsAt,
              sub.deleteAt,
              sub.hasCard,
            ],
          );
          // The event id says what the event is about, so a retried write is the same event.
          const eventId = `account-created:${account.id}`;
          await writeEvent(tx, S, {
            id: eventId,
            subject: accountCreated.subject,
            data: accountCreated.encode({
              eventId,
              userId: account.id,
              email: account.email ?? '',
              lang: account.lang,
              createdAt: account.createdAt,
            }),
          });
          if (mail) await writeAccountMail(tx, box, mail);
        });
        return 'created';
      } catch (error) {
        if (isUniqueViolation(error)) return 'email_taken';
        throw error;
      }
    },

    async findByEmail(email) {
      const { rows } = await db.query<IdentityRow>(
        `SELECT ${identity} FROM ${S}.users WHERE lower(email) = lower($1)`,
        [email],
      );
      return toIdentity(rows[0]);
    },

    async findByXSubject(subject) {
      const { rows } = await db.query<IdentityRow>(
        `SELECT ${identity} FROM ${S}.users WHERE x_subject = $1`,
        [subject],
      );
      return toIdentity(rows[0]);
    },

    async loadAccount(userId): Promise<AccountRecord | null> {
      const { rows } = await db.query<AccountRow>(
        `SELECT ${ACCOUNT_COLUMNS}
           FROM ${S}.users u LEFT JOIN ${S}.subscriptions s ON s.user_id = u.id
                LEFT JOIN ${S}.billing_accounts b ON b.user_id = u.id
          WHERE u.id = $1`,
        [userId],
      );
      const row = rows[0];
      if (!row) return null;
      const mails = await db.query<{ id: string; position: number; email: string; verified_at: Date | null }>(
        `SELECT id, position, email, verified_at FROM ${S}.mail_addresses WHERE user_id = $1 ORDER BY position`,
        [userId],
      );
      const targetDemand = await loadTargetDemand(db, userId);
      const record = toAccountRecord(
        row,
        mails.rows.map(
          (mail): MailAddress => ({
            id: mail.id,
            index: mail.position,
            email: mail.email,
            verified: mail.verified_at !== null,
          }),
        ),
      );
      return targetDemand ? { ...record, targetDemand } : record;
    },

    async queueMail(mail) {
      await db.transaction((tx) => writeAccountMail(tx, box, mail));
    },

    async findSession(tokenHash, now) {
      // The session list's "last seen", written at most once a minute per session, not per request.
      // The session's workspace when the person still belongs to it, else the person's own. An
      // account no membership names at all (made before memberships, or by a test's insert) is
      // its own person's personal workspace, owned by them.
      const { rows } = await db.query<{
        person_id: string;
        workspace_id: string;
        role: string | null;
        deleted_at: Date | null;
      }>(
        `WITH seen AS (
           UPDATE ${S}.sessions SET last_seen_at = $2
            WHERE token_hash = $1 AND expires_at > $2
              AND (last_seen_at IS NULL OR last_seen_at < $2::timestamptz - interval '1 minute'))
         SELECT s.user_id AS person_id,
                COALESCE(cur.workspace_id, s.user_id) AS workspace_id,
                COALESCE(cur.role, own.role,
                         CASE WHEN EXISTS (SELECT 1 FROM ${S}.memberships m WHERE m.workspace_id = s.user_id)
                              THEN NULL ELSE 'owner' END) AS role,
                w.deleted_at
           FROM ${S}.sessions s
           LEFT JOIN ${S}.memberships cur
                  ON cur.workspace_id = s.workspace_id AND cur.person_id = s.user_id
           LEFT JOIN ${S}.memberships own
                  ON own.workspace_id = s.user_id AND own.person_id = s.user_id
           JOIN ${S}.users w ON w.id = COALESCE(cur.workspace_id, s.user_id)
          WHERE s.token_hash = $1 AND s.expires_at > $2`,
        [tokenHash, now],
      );
      const row = rows[0];
      if (!row) return null;
      return {
        userId: row.workspace_id,
        personId: row.person_id,
        role: isWorkspaceRole(row.role) ? row.role : null,
        deleted: row.deleted_at !== null,
      };
    },

    async createSession(session, replacedTokenHash) {
      await db.transaction(async (tx) => {
        if (replacedTokenHash) {
          await tx.query(`DELETE FROM ${S}.sessions WHERE token_hash = $1`, [replacedTokenHash]);
        }
        await tx.query(
          `INSERT INTO ${S}.sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
          [session.tokenHash, session.userId, session.createdAt, session.expiresAt],
        );
      });
    },

    async deleteSession(tokenHash) {
      await db.query(`DELETE FROM ${S}.sessions WHERE token_hash = $1`, [tokenHash]);
    },

    beginSignInAttempt(attempt, isThrottled) {
      return db.transaction(async (tx) => {
        // Held to commit only: the count and the insert, never the password check.
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`sign-in:${attempt.accountKey}`]);
        const { rows } = await tx.query<{ account: number; address: number }>(
          `SELECT (SELECT count(*) FROM ${S}.sign_in_failures WHERE account_key = $1 AND failed_at > $3)::int AS account,
                  (SELECT count(*) FROM ${S}.sign_in_failures WHERE client_address = $2 AND failed_at > $3)::int AS address`,
          [attempt.accountKey, attempt.clientAddress, attempt.since],
        );
        if (isThrottled({ account: rows[0]?.account ?? 0, address: rows[0]?.address ?? 0 })) return null;
        const inserted = await tx.query<{ id: number }>(
          `INSERT INTO ${S}.sign_in_failures (account_key, client_address, failed_at) VALUES ($1, $2, $3) RETURNING id`,
          [attempt.accountKey, attempt.clientAddress, attempt.at],
        );
        return String(inserted.rows[0]?.id);
      });
    },

    async clearSignInAttempt(attemptId) {
      await db.query(`DELETE FROM ${S}.sign_in_failures WHERE id = $1`, [attemptId]);
    },

    async useVerificationToken(tokenHash, now) {
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<{
          kind: string;
          user_id: string;
          subject: string;
          used_at: Date | null;
        }>(
          `SELECT kind, user_id, subject, used_at FROM ${S}.tokens
            WHERE token_hash = $1 AND kind IN ('verify_email', 'verify_mail', 'change_email') AND expires_at > $2
            FOR UPDATE`,
          [tokenHash, now],
        );
        const token = rows[0];
        if (!token) return null;
        if (token.used_at) return 'used' as const;
        await tx.query(`UPDATE ${S}.tokens SET used_at = $2 WHERE token_hash = $1`, [tokenHash, now]);
        if (token.kind === 'verify_email') {
          await tx.query(
            `UPDATE ${S}.users SET email_verified_at = coalesce(email_verified_at, $2)
              WHERE id = $1 AND lower(email) = lower($3)`,
            [token.user_id, now, token.subject],
          );
        } else if (token.kind === 'change_email') {
          const changed = await tx.query(
            `UPDATE ${S}.users SET email = $3, email_verified_at = $2
              WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM ${S}.users o WHERE lower(o.email) = lower($3) AND o.id <> $1)`,
            [token.user_id, now, token.subject],
          );
          // Someone registered the address meanwhile: the link no longer leads anywhere.
          if (changed.rowCount === 0) return null;
        } else {
          await tx.query(
            `UPDATE ${S}.mail_addresses SET verified_at = coalesce(verified_at, $3) WHERE id = $1 AND user_id = $2`,
            [token.subject, token.user_id, now],
          );
        }
        return { userId: token.user_id, subject: token.subject };
      });
    },

    async resetPassword(tokenHash, passwordHash, now) {
      return db.transaction(async (tx) => {
        const token = await spendToken(tx, tokenHash, 'reset_password', now);
        if (!token) return false;
        // Opening the mailed link proves the address too.
        await tx.query(
          `UPDATE ${S}.users SET password_hash = $2, email_verified_at = coalesce(email_verified_at, $3)
            WHERE id = $1`,
          [token.user_id, passwordHash, now],
        );
        await tx.query(`DELETE FROM ${S}.sessions WHERE user_id = $1`, [token.user_id]);
        return true;
      });
    },

    async setPassword(userId, passwordHash, keepSessionHash) {
      await db.transaction(async (tx) => {
        await tx.query(`UPDATE ${S}.users SET password_hash = $2 WHERE id = $1`, [userId, passwordHash]);
        await tx.query(`DELETE FROM ${S}.sessions WHERE user_id = $1 AND token_hash <> $2`, [
          userId,
          keepSessionHash,
        ]);
      });
    },

    async passwordHashOf(userId) {
      const { rows } = await db.query<{ password_hash: string | null }>(
        `SELECT password_hash FROM ${S}.users WHERE id = $1`,
        [userId],
      );
      return rows[0]?.password_hash ?? null;
    },

    async billingCurrency(userId) {
      const { rows } = await db.query<{ currency: 'JPY' | 'USD' }>(
        `SELECT currency FROM ${S}.billing_accounts WHERE user_id = $1`,
        [userId],
      );
      return rows[0]?.currency ?? null;
    },

    async updateProfile(userId, change: ProfileChange) {
      const fields = (['name', 'lang', 'timezone', 'currency'] as const).filter(
        (field) => change[field] !== undefined,
      );
      const { rowCount } = await db.query(
        `UPDATE ${S}.users SET name = coalesce($2, name), lang = coalesce($3, lang),
                timezone = coalesce($4, timezone), currency = coalesce($5, currency), ${raiseRevision('$7')}
          WHERE id = $1 AND ${unchangedSince('$6', '$7')}`,
        [
          userId,
          change.name ?? null,
          change.lang ?? null,
          change.timezone ?? null,
          change.currency ?? null,
          change.expectedRevision ?? null,
          fields,
        ],
      );
      return (rowCount ?? 0) > 0;
    },

    async addMail(address, mail) {
      try {
        await db.transaction(async (tx) => {
          // The next free index; the unique (user, position) index settles two concurrent adds.
          await tx.query(
            `INSERT INTO ${S}.mail_addresses (id, user_id, position, email, created_at)
             SELECT $1, $2, coalesce(max(position) + 1, 0), $3, $4 FROM ${S}.mail_addresses WHERE user_id = $2`,
            [address.id, address.userId, address.email, address.createdAt],
          );
          await writeAccountMail(tx, box, mail);
        });
        return 'added';
      } catch (error) {
        if (isUniqueViolation(error)) return 'duplicate';
        throw error;
      }
    },

    async removeMail(userId, mailId) {
      const { rows } = await db.query<{ id: string }>(
        `DELETE FROM ${S}.mail_addresses WHERE user_id = $1 AND id::text = $2 RETURNING id`,
        [userId, mailId],
      );
      return rows.length > 0;
    },

    async setDiscord(userId, sealedWebhook, state: DiscordState) {
      await db.query(`UPDATE ${S}.users SET discord_webhook_sealed = $2, discord_state = $3 WHERE id = $1`, [
        userId,
        sealedWebhook,
        state,
      ]);
    },

    async sealedDiscordWebhook(userId) {
      const { rows } = await db.query<{ discord_webhook_sealed: string | null }>(
        `SELECT discord_webhook_sealed FROM ${S}.users WHERE id = $1`,
        [userId],
      );
      return rows[0]?.discord_webhook_sealed ?? null;
    },

    async quietHours(userId) {
      const { rows } = await db.query<{ quiet_hours: QuietHours | null; settings_revision: string }>(
        `SELECT quiet_hours, settings_revision FROM ${S}.users WHERE id = $1`,
        [userId],
      );
      return {
        quiet: rows[0]?.quiet_hours ?? NO_QUIET_HOURS,
        revision: Number(rows[0]?.settings_revision ?? 0),
      };
    },

    async setQuietHours(userId, quiet, expectedRevision) {
      const { rows } = await db.query<{ settings_revision: string }>(
        `UPDATE ${S}.users SET quiet_hours = $2, ${raiseRevision('$4')}
          WHERE id = $1 AND ${unchangedSince('$3', '$4')}
          RETURNING settings_revision`,
        [userId, JSON.stringify(quiet), expectedRevision ?? null, ['quiet_hours']],
      );
      return rows[0] ? Number(rows[0].settings_revision) : null;
    },

    async insertSupportRequest(request, mail) {
      await db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO ${S}.support_requests (id, user_id, type, notes, created_at) VALUES ($1, $2, $3, $4, $5)`,
          [request.id, request.userId, request.type, request.notes, request.createdAt],
        );
        if (mail) await writeAccountMail(tx, box, mail);
      });
    },

    async findSupportFollowUp(tokenHash, now) {
      const { rows } = await db.query<{ type: string; notes: string }>(
        `SELECT r.type, r.notes FROM ${S}.tokens t
           JOIN ${S}.support_requests r ON r.id::text = t.subject AND r.user_id = t.user_id
          WHERE t.token_hash = $1 AND t.kind = 'support_follow_up' AND t.used_at IS NULL AND t.expires_at > $2`,
        [tokenHash, now],
      );
      return rows[0] ?? null;
    },

    async useSupportFollowUp(tokenHash, notes, now) {
      return db.transaction(async (tx) => {
        const token = await spendToken(tx, tokenHash, 'support_follow_up', now);
        if (!token) return false;
        await tx.query(
          `UPDATE ${S}.support_requests SET follow_up_notes = $3 WHERE id::text = $1 AND user_id = $2`,
          [token.subject, token.user_id, notes],
        );
        return true;
      });
    },
  };
}

/**
 * Marks a token of this kind used, in the caller's transaction, if it is unused and unexpired:
 * the user and subject it was issued for, or undefined. The one UPDATE makes a link usable once
 * even when it is opened twice at the same moment.
 */
async function spendToken(
  tx: Sql,
  tokenHash: string,
  kind: TokenKind,
  now: Date,
): Promise<{ user_id: string; subject: string } | undefined> {
  const { rows } = await tx.query<{ user_id: string; subject: string }>(
    `UPDATE ${S}.tokens SET used_at = $2
      WHERE token_hash = $1 AND kind = $3 AND used_at IS NULL AND expires_at > $2
      RETURNING user_id, subject`,
    [tokenHash, now, kind],
  );
  return rows[0];
}
