import type { Db } from '@mimamori/db';
import type { AuditEntryRecord, AuditFilter, AuditPort } from '../domain/audit-log.ts';
import { ACCOUNT_SCHEMA } from './migrations.ts';

const S = ACCOUNT_SCHEMA;

interface AuditRow {
  id: string;
  workspace_id: string;
  at: Date;
  actor_person_id: string | null;
  actor_label: string;
  actor_token: string;
  action: string;
  subject_kind: string;
  subject_id: string;
  subject_label: string;
  client_address: string;
  user_agent: string;
  details: Record<string, string> | string;
}

const toRecord = (row: AuditRow): AuditEntryRecord => ({
  id: String(row.id),
  workspaceId: row.workspace_id,
  at: new Date(row.at),
  actorPersonId: row.actor_person_id,
  actorLabel: row.actor_label,
  actorToken: row.actor_token,
  action: row.action,
  subjectKind: row.subject_kind,
  subjectId: row.subject_id,
  subjectLabel: row.subject_label,
  clientAddress: row.client_address,
  userAgent: row.user_agent,
  details: typeof row.details === 'string' ? JSON.parse(row.details) : row.details,
});

/**
 * The audit log's rows. Inserts and reads only: the table's trigger refuses UPDATE and DELETE
 * (ADR 0036), and the sweep goes through the one function allowed to delete.
 */
export function createAuditStore(db: Db): AuditPort {
  return {
    async appendAuditEntry(entry) {
      await db.query(
        `INSERT INTO ${S}.audit_entries (workspace_id, at, actor_person_id, actor_label, actor_token, action,
           subject_kind, subject_id, subject_label, client_address, user_agent, details)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          entry.workspaceId,
          entry.at,
          entry.actorPersonId,
          entry.actorLabel,
          entry.actorToken,
          entry.action,
          entry.subjectKind,
          entry.subjectId,
          entry.subjectLabel,
          entry.clientAddress,
          entry.userAgent,
          JSON.stringify(entry.details),
        ],
      );
    },

    async listAuditEntries(workspaceId, filter, page) {
      const { where, params } = filterClause(workspaceId, filter);
      const { rows } = await db.query<AuditRow>(
        `SELECT * FROM ${S}.audit_entries WHERE ${where}
         ORDER BY at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, page.limit, page.offset],
      );
      const counted = await db.query<{ total: string }>(
        `SELECT count(*) AS total FROM ${S}.audit_entries WHERE ${where}`,
        params,
      );
      return { entries: rows.map(toRecord), total: Number(counted.rows[0]?.total ?? 0) };
    },

    async auditPeople(workspaceId) {
      const { rows } = await db.query<{ actor_person_id: string; actor_label: string }>(
        `SELECT DISTINCT ON (actor_person_id) actor_person_id, actor_label FROM ${S}.audit_entries
         WHERE workspace_id = $1 AND actor_person_id IS NOT NULL
         ORDER BY actor_person_id, at DESC`,
        [workspaceId],
      );
      return rows
        .map((row) => ({ personId: row.actor_person_id, label: row.actor_label }))
        .sort((a, b) => a.label.localeCompare(b.label));
    },

    async sweepAuditEntries(retentionDays, defaultDays, now) {
      const { rows } = await db.query<{ removed: string }>(
        `SELECT ${S}.sweep_audit_entries($1::jsonb, $2, $3) AS removed`,
        [JSON.stringify(retentionDays), defaultDays, now],
      );
      return Number(rows[0]?.removed ?? 0);
    },
  };
}

/** Every query names the workspace first: one workspace's filters never reach another's rows. */
function filterClause(workspaceId: string, filter: AuditFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [workspaceId];
  const parts = ['workspace_id = $1'];
  if (filter.personId) {
    params.push(filter.personId);
    parts.push(`actor_person_id = $${params.length}`);
  }
  if (filter.kind) {
    params.push(`${filter.kind}.%`);
    parts.push(`action LIKE $${params.length}`);
  }
  if (filter.subjectId) {
    params.push(filter.subjectId);
    parts.push(`subject_id = $${params.length}`);
  }
  if (filter.from) {
    params.push(filter.from);
    parts.push(`at >= $${params.length}`);
  }
  if (filter.until) {
    params.push(filter.until);
    parts.push(`at < $${params.length}`);
  }
  return { where: parts.join(' AND '), params };
}
