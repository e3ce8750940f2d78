import type { Db } from '@mimamori/db';
import type { SecretBox } from '@mimamori/secret-box';
import { isWorkspaceRole, type WorkspaceRole } from '../domain/workspace-role.ts';
import type { InvitationRecord, MemberRecord, WorkspacePort } from '../domain/workspaces.ts';
import { writeAccountMail } from './account-mail-writer.ts';
import { ACCOUNT_SCHEMA } from './migrations.ts';

const S = ACCOUNT_SCHEMA;
const roleOf = (value: string): WorkspaceRole => (isWorkspaceRole(value) ? value : 'viewer');

/** Memberships and invitations (ADR 0033) in the account schema. */
export function createWorkspaceStore(db: Db, box: SecretBox): WorkspacePort {
  return {
    async listWorkspaces(personId) {
      const { rows } = await db.query<{ id: string; name: string; email: string | null; role: string }>(
        `SELECT w.id, w.name, w.email, m.role
           FROM ${S}.memberships m JOIN ${S}.users w ON w.id = m.workspace_id
          WHERE m.person_id = $1 AND w.deleted_at IS NULL
          ORDER BY (w.id = $1) DESC, w.name, w.created_at`,
        [personId],
      );
      return rows.map((row) => ({
        id: row.id,
        name: row.name || row.email || '',
        role: roleOf(row.role),
        personal: row.id === personId,
      }));
    },

    async loadMembers(workspaceId, now) {
      const [members, invitations, workspace] = await Promise.all([
        db.query<{
          person_id: string;
          name: string;
          email: string | null;
          role: string;
          created_at: Date;
          has_second_factor: boolean;
        }>(
          `SELECT m.person_id, p.name, p.email, m.role, m.created_at,
                  (EXISTS (SELECT 1 FROM ${S}.totp_factors t
                            WHERE t.user_id = m.person_id AND t.confirmed_at IS NOT NULL)
                   OR EXISTS (SELECT 1 FROM ${S}.passkeys k WHERE k.user_id = m.person_id)) AS has_second_factor
             FROM ${S}.memberships m JOIN ${S}.users p ON p.id = m.person_id
            WHERE m.workspace_id = $1 AND p.deleted_at IS NULL
            ORDER BY m.created_at, p.email`,
          [workspaceId],
        ),
        db.query<{ id: string; email: string; role: string; created_at: Date; expires_at: Date }>(
          `SELECT id, email, role, created_at, expires_at FROM ${S}.invitations
            WHERE workspace_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2
            ORDER BY created_at`,
          [workspaceId, now],
        ),
        db.query<{
          name: string;
          email: string | null;
          lang: string;
          plan: number | null;
          two_factor_required: boolean | null;
        }>(
          `SELECT w.name, w.email, w.lang, s.plan,
                  (w.workspace_settings->>'two_factor_required')::boolean AS two_factor_required
             FROM ${S}.users w LEFT JOIN ${S}.subscriptions s ON s.user_id = w.id
            WHERE w.id = $1`,
          [workspaceId],
        ),
      ]);
      const row = workspace.rows[0];
      return {
        members: members.rows.map(
          (member): MemberRecord => ({
            personId: member.person_id,
            name: member.name,
            email: member.email ?? '',
            role: roleOf(member.role),
            joinedAt: member.created_at,
            hasSecondFactor: member.has_second_factor,
          }),
        ),
        invitations: invitations.rows.map(
          (invitation): InvitationRecord => ({
            id: invitation.id,
            email: invitation.email,
            role: roleOf(invitation.role),
            createdAt: invitation.created_at,
            expiresAt: invitation.expires_at,
          }),
        ),
        plan: row?.plan ?? 0,
        name: row?.name || row?.email || '',
        lang: row?.lang === 'en' ? 'en' : 'ja',
        twoFactorRequired: row?.two_factor_required === true,
      };
    },

    async secondFactorMissing(workspaceId, personId) {
      const { rows } = await db.query<{ missing: boolean }>(
        `SELECT COALESCE((w.workspace_settings->>'two_factor_required')::boolean, false)
                AND NOT EXISTS (SELECT 1 FROM ${S}.totp_factors t
                                 WHERE t.user_id = $2 AND t.confirmed_at IS NOT NULL)
                AND NOT EXISTS (SELECT 1 FROM ${S}.passkeys k WHERE k.user_id = $2) AS missing
           FROM ${S}.users w WHERE w.id = $1`,
        [workspaceId, personId],
      );
      return rows[0]?.missing === true;
    },

    async setTwoFactorRequired(workspaceId, required) {
      await db.query(
        `UPDATE ${S}.users SET workspace_settings = workspace_settings || jsonb_build_object('two_factor_required', $2::boolean)
          WHERE id = $1`,
        [workspaceId, required],
      );
    },

    async setSessionWorkspace(sessionTokenHash, workspaceId) {
      await db.query(`UPDATE ${S}.sessions SET workspace_id = $2 WHERE token_hash = $1`, [
        sessionTokenHash,
        workspaceId,
      ]);
    },

    insertInvitation(invitation, mail, now) {
      return db.transaction(async (tx) => {
        // One pending invitation per address: two admins inviting at once cannot both send one.
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
          `invite:${invitation.workspaceId}:${invitation.email.toLowerCase()}`,
        ]);
        const pending = await tx.query(
          `SELECT 1 FROM ${S}.invitations
            WHERE workspace_id = $1 AND lower(email) = lower($2)
              AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $3`,
          [invitation.workspaceId, invitation.email, now],
        );
        if (pending.rowCount > 0) return 'exists' as const;
        await tx.query(
          `INSERT INTO ${S}.invitations (id, workspace_id, email, role, token_hash, invited_by, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [
            invitation.id,
            invitation.workspaceId,
            invitation.email,
            invitation.role,
            invitation.tokenHash,
            invitation.invitedBy,
            invitation.createdAt,
            invitation.expiresAt,
          ],
        );
        await writeAccountMail(tx, box, mail);
        return 'created' as const;
      });
    },

    async revokeInvitation(workspaceId, invitationId, now) {
      const { rowCount } = await db.query(
        `UPDATE ${S}.invitations SET revoked_at = $3
          WHERE id::text = $2 AND workspace_id = $1
            AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $3`,
        [workspaceId, invitationId, now],
      );
      return rowCount > 0;
    },

    acceptInvitation(tokenHash, personId, now) {
      return db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: string; workspace_id: string; role: string }>(
          `UPDATE ${S}.invitations SET accepted_at = $2
            WHERE token_hash = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > $2
            RETURNING id, workspace_id, role`,
          [tokenHash, now],
        );
        const invitation = rows[0];
        if (!invitation) return null;
        await tx.query(`UPDATE ${S}.tokens SET used_at = $2 WHERE token_hash = $1`, [tokenHash, now]);
        await tx.query(
          `INSERT INTO ${S}.memberships (workspace_id, person_id, role, created_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (workspace_id, person_id) DO NOTHING`,
          [invitation.workspace_id, personId, invitation.role, now],
        );
        return { workspaceId: invitation.workspace_id };
      });
    },

    async setRole(workspaceId, personId, role) {
      const { rowCount } = await db.query(
        `UPDATE ${S}.memberships SET role = $3 WHERE workspace_id = $1 AND person_id::text = $2 AND role <> 'owner'`,
        [workspaceId, personId, role],
      );
      return rowCount > 0;
    },

    async removeMember(workspaceId, personId) {
      const { rowCount } = await db.query(
        `DELETE FROM ${S}.memberships WHERE workspace_id = $1 AND person_id::text = $2 AND role <> 'owner'`,
        [workspaceId, personId],
      );
      return rowCount > 0;
    },

    transferOwnership(workspaceId, fromPersonId, toPersonId) {
      return db
        .transaction(async (tx) => {
          // Demoted first: the one-owner index holds at every statement.
          const demoted = await tx.query(
            `UPDATE ${S}.memberships SET role = 'admin' WHERE workspace_id = $1 AND person_id::text = $2 AND role = 'owner'`,
            [workspaceId, fromPersonId],
          );
          const promoted = await tx.query(
            `UPDATE ${S}.memberships SET role = 'owner' WHERE workspace_id = $1 AND person_id::text = $2`,
            [workspaceId, toPersonId],
          );
          if (demoted.rowCount !== 1 || promoted.rowCount !== 1) {
            // Nothing changes when either side is missing.
            throw new NotAMember();
          }
          return true;
        })
        .catch((error: unknown) => {
          if (error instanceof NotAMember) return false;
          throw error;
        });
    },
  };
}

class NotAMember extends Error {}
