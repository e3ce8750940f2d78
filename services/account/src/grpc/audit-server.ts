import type { auditV1 } from '@mimamori/contracts';
import { auditRetentionDays } from '@mimamori/plans';
import { unaryHandler } from '@mimamori/service-host';
import {
  AUDIT_CSV_MAX,
  AUDIT_PAGE_SIZE,
  type AuditDeps,
  type AuditEntryRecord,
  type AuditFilter,
  auditCsv,
  checkedFilter,
  pageOf,
  readableWorkspace,
  recordAuditEntry,
  recordFailedSignIn,
} from '../domain/audit-log.ts';
import { answering } from './problem-status.ts';

/** The audit log over gRPC (ADR 0036); reads act for the session's own workspace only. */
export function auditServer(deps: AuditDeps): auditV1.AuditServiceServer {
  const rpc = <Req, Res>(work: (request: Req) => Promise<Res>) =>
    unaryHandler((request: Req) => answering(() => work(request)));
  const client = (value: auditV1.AuditClient | undefined) => ({
    address: value?.address ?? '',
    userAgent: value?.userAgent ?? '',
  });
  return {
    recordAuditEntry: rpc(async (request: auditV1.RecordAuditEntryRequest) => {
      await recordAuditEntry(deps, {
        sessionToken: request.sessionToken,
        action: request.action,
        subjectKind: request.subjectKind,
        subjectId: request.subjectId,
        subjectLabel: request.subjectLabel,
        client: client(request.client),
        details: request.details,
      });
      return {};
    }),
    recordFailedSignIn: rpc(async (request: auditV1.RecordFailedSignInRequest) => {
      await recordFailedSignIn(deps, { email: request.email, client: client(request.client) });
      return {};
    }),
    listAuditEntries: rpc(async (request: auditV1.ListAuditEntriesRequest) => {
      const workspaceId = await readableWorkspace(deps, request.sessionToken);
      const filter = checkedFilter(toFilter(request.filter));
      const page = pageOf(request.page);
      const [{ entries, total }, people, account] = await Promise.all([
        deps.audit.listAuditEntries(workspaceId, filter, page),
        deps.audit.auditPeople(workspaceId),
        deps.accounts.loadAccount(workspaceId),
      ]);
      return {
        entries: entries.map(toEntry),
        page: page.page,
        pageSize: AUDIT_PAGE_SIZE,
        total,
        people,
        retentionDays: auditRetentionDays(account?.subscription.plan ?? 0),
      };
    }),
    exportAuditCsv: rpc(async (request: auditV1.ExportAuditCsvRequest) => {
      const workspaceId = await readableWorkspace(deps, request.sessionToken);
      const filter = checkedFilter(toFilter(request.filter));
      const [{ entries }, account] = await Promise.all([
        deps.audit.listAuditEntries(workspaceId, filter, { offset: 0, limit: AUDIT_CSV_MAX }),
        deps.accounts.loadAccount(workspaceId),
      ]);
      const lang = request.lang === 'en' || request.lang === 'ja' ? request.lang : (account?.lang ?? 'ja');
      const day = deps.clock.now().toISOString().slice(0, 10);
      return {
        csv: Buffer.from(auditCsv(entries, lang, account?.timezone ?? 'Asia/Tokyo'), 'utf8'),
        filename: `mimamori-audit-${day}.csv`,
      };
    }),
  };
}

function toFilter(filter: auditV1.AuditFilter | undefined): AuditFilter {
  return {
    personId: filter?.personId ?? '',
    kind: filter?.kind ?? '',
    subjectId: filter?.subjectId ?? '',
    from: filter?.from ?? null,
    until: filter?.until ?? null,
  };
}

function toEntry(entry: AuditEntryRecord): auditV1.AuditEntry {
  return {
    id: entry.id,
    at: entry.at,
    actorPersonId: entry.actorPersonId ?? '',
    actorLabel: entry.actorLabel,
    actorToken: entry.actorToken,
    action: entry.action,
    subjectKind: entry.subjectKind,
    subjectId: entry.subjectId,
    subjectLabel: entry.subjectLabel,
    clientAddress: entry.clientAddress,
    userAgent: entry.userAgent,
    details: entry.details,
  };
}
