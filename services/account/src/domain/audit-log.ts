import { AUDIT_KINDS, type AuditKind } from '@mimamori/http-api';
import type { AccountDeps } from './account-deps.ts';
import { AccountProblem } from './account-problem.ts';
import { isApiTokenShaped } from './api-access.ts';
import { hashToken } from './one-time-token.ts';
import { hashSessionToken } from './session-token.ts';

/**
 * The workspace's audit log (docs/product.md#audit-log, ADR 0036). A workspace is today's
 * account: its id is the account's user id, and its owner is that user.
 */

/** An action's name is `<kind>.<verb>`; the kind is what the screen filters by. */
const ACTION = /^([a-z_]{2,20})\.([a-z_]{2,40})$/;

export const AUDIT_PAGE_SIZE = 50;
/** A CSV holds at most this many entries; the screen's filters narrow a bigger log. */
export const AUDIT_CSV_MAX = 10_000;

/** Detail keys that could name a secret are dropped whatever the caller sends. */
const SECRET_KEY = /pass|secret|token|key|card_number|cvc|otp|code/i;
const DETAIL_KEY = /^[a-z_]{1,40}$/;
const MAX_DETAILS = 12;
const MAX_DETAIL_CHARS = 300;
const MAX_TEXT = 300;

export interface AuditClient {
  address: string;
  userAgent: string;
}

export interface AuditEntryRecord {
  id: string;
  workspaceId: string;
  at: Date;
  actorPersonId: string | null;
  actorLabel: string;
  actorToken: string;
  action: string;
  subjectKind: string;
  subjectId: string;
  subjectLabel: string;
  clientAddress: string;
  userAgent: string;
  details: Record<string, string>;
}

export type NewAuditEntry = Omit<AuditEntryRecord, 'id'>;

export interface AuditFilter {
  personId: string;
  kind: string;
  subjectId: string;
  from: Date | null;
  until: Date | null;
}

export interface AuditPort {
  appendAuditEntry(entry: NewAuditEntry): Promise<void>;
  listAuditEntries(
    workspaceId: string,
    filter: AuditFilter,
    page: { offset: number; limit: number },
  ): Promise<{ entries: AuditEntryRecord[]; total: number }>;
  /** Everyone who acted in the workspace's kept entries, with their latest label. */
  auditPeople(workspaceId: string): Promise<{ personId: string; label: string }[]>;
  /** The retention sweep: removes what each workspace's plan no longer keeps; how many went. */
  sweepAuditEntries(retentionDays: Record<number, number>, defaultDays: number, now: Date): Promise<number>;
}

export interface AuditDeps {
  accounts: AccountDeps['accounts'];
  audit: AuditPort;
  clock: AccountDeps['clock'];
}

export interface RecordRequest {
  sessionToken: string;
  action: string;
  subjectKind: string;
  subjectId: string;
  subjectLabel: string;
  client: AuditClient;
  details: Record<string, string>;
}

/** "Name <mail>", or whichever of the two the account has. */
export function personLabel(account: { name: string; email: string | null }): string {
  const name = account.name.trim();
  const email = account.email ?? '';
  if (name && email) return `${name} <${email}>`;
  return name || email;
}

/**
 * Writes one entry for the caller: the person behind the session, or behind the API token that
 * stood in for it (named as the token, on the person's behalf).
 */
export async function recordAuditEntry(deps: AuditDeps, request: RecordRequest): Promise<void> {
  if (!ACTION.test(request.action) || !AUDIT_KINDS.includes(request.action.split('.')[0] as AuditKind)) {
    throw new AccountProblem('invalid', 'unknown_action');
  }
  const actor = await actorOf(deps, request.sessionToken);
  await deps.audit.appendAuditEntry({
    workspaceId: actor.workspaceId,
    at: deps.clock.now(),
    actorPersonId: actor.personId,
    actorLabel: actor.label,
    actorToken: actor.token,
    action: request.action,
    subjectKind: clip(request.subjectKind, 40),
    subjectId: clip(request.subjectId, 100),
    subjectLabel: clip(request.subjectLabel, MAX_TEXT),
    clientAddress: clip(request.client.address, 100),
    userAgent: clip(request.client.userAgent, MAX_TEXT),
    details: safeDetails(request.details),
  });
}

/** A refused password for a known address lands in that account's log; an unknown one in none. */
export async function recordFailedSignIn(
  deps: AuditDeps,
  request: { email: string; client: AuditClient },
): Promise<void> {
  const identity = request.email ? await deps.accounts.findByEmail(request.email) : null;
  if (!identity || identity.deleted) return;
  await deps.audit.appendAuditEntry({
    workspaceId: identity.id,
    at: deps.clock.now(),
    actorPersonId: null,
    actorLabel: '',
    actorToken: '',
    action: 'signin.failed',
    subjectKind: 'person',
    subjectId: identity.id,
    subjectLabel: clip(request.email, MAX_TEXT),
    clientAddress: clip(request.client.address, 100),
    userAgent: clip(request.client.userAgent, MAX_TEXT),
    details: {},
  });
}

/** An entry the product itself writes, with no person acting (a payment provider's event). */
export async function recordSystemEntry(
  deps: Pick<AuditDeps, 'audit' | 'clock'>,
  workspaceId: string,
  entry: { action: string; actorLabel: string; details: Record<string, string> },
): Promise<void> {
  await deps.audit.appendAuditEntry({
    workspaceId,
    at: deps.clock.now(),
    actorPersonId: null,
    actorLabel: entry.actorLabel,
    actorToken: '',
    action: entry.action,
    subjectKind: '',
    subjectId: '',
    subjectLabel: '',
    clientAddress: '',
    userAgent: '',
    details: safeDetails(entry.details),
  });
}

/**
 * The workspace whose log the caller may read: the browser session's own account, whose owner it
 * is until workspaces bring other roles. An API token cannot read it (it names addresses and
 * browsers of everyone in the workspace).
 */
export async function readableWorkspace(deps: AuditDeps, sessionToken: string): Promise<string> {
  if (isApiTokenShaped(sessionToken)) throw new AccountProblem('forbidden', 'session_required');
  const session = sessionToken
    ? await deps.accounts.findSession(hashSessionToken(sessionToken), deps.clock.now())
    : null;
  if (!session || session.deleted) throw new AccountProblem('unauthenticated', 'unauthenticated');
  return session.userId;
}

export function pageOf(page: number): { page: number; offset: number; limit: number } {
  const safe = Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
  return { page: safe, offset: (safe - 1) * AUDIT_PAGE_SIZE, limit: AUDIT_PAGE_SIZE };
}

/** A filter as asked; an unknown kind or a person id of the wrong shape is refused, not ignored. */
export function checkedFilter(filter: AuditFilter): AuditFilter {
  if (filter.kind && !AUDIT_KINDS.includes(filter.kind as AuditKind)) {
    throw new AccountProblem('invalid', 'bad_filter');
  }
  if (filter.personId && !/^[0-9a-f-]{36}$/i.test(filter.personId)) {
    throw new AccountProblem('invalid', 'bad_filter');
  }
  if (filter.subjectId.length > 100) throw new AccountProblem('invalid', 'bad_filter');
  if (filter.from && filter.until && filter.from > filter.until) {
    throw new AccountProblem('invalid', 'bad_filter');
  }
  return filter;
}

async function actorOf(
  deps: AuditDeps,
  sessionToken: string,
): Promise<{ workspaceId: string; personId: string; label: string; token: string }> {
  const now = deps.clock.now();
  // The workspace the session works in and the person at it (ADR 0033): a member's action is
  // logged under their own name in the workspace they acted in.
  let workspaceId: string;
  let personId: string;
  let token = '';
  if (isApiTokenShaped(sessionToken)) {
    const found = await deps.accounts.findApiToken(hashToken(sessionToken), now);
    if (!found || found.deleted) throw new AccountProblem('unauthenticated', 'unauthenticated');
    workspaceId = found.userId;
    personId = found.userId;
    token = found.name;
  } else {
    const found = sessionToken ? await deps.accounts.findSession(hashSessionToken(sessionToken), now) : null;
    if (!found || found.deleted || !found.role)
      throw new AccountProblem('unauthenticated', 'unauthenticated');
    workspaceId = found.userId;
    personId = found.personId;
  }
  const person = await deps.accounts.loadAccount(personId);
  if (!person) throw new AccountProblem('unauthenticated', 'unauthenticated');
  return { workspaceId, personId, label: personLabel(person), token: clip(token, 100) };
}

function clip(value: string, max: number): string {
  // Control characters would break a CSV row or a terminal reading the log.
  const clean = Array.from(value, (char) => {
    const code = char.codePointAt(0) ?? 0;
    return code < 0x20 || code === 0x7f ? ' ' : char;
  }).join('');
  return clean.length > max ? clean.slice(0, max) : clean;
}

export function safeDetails(details: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(details).slice(0, MAX_DETAILS)) {
    if (!DETAIL_KEY.test(key) || SECRET_KEY.test(key)) continue;
    kept[key] = clip(String(value), MAX_DETAIL_CHARS);
  }
  return kept;
}

const CSV_HEADERS = {
  ja: [
    '日時',
    '実行者',
    '実行者ID',
    'APIトークン',
    '操作',
    '対象の種類',
    '対象ID',
    '対象',
    'IPアドレス',
    'ユーザーエージェント',
    '詳細',
  ],
  en: [
    'Time',
    'Actor',
    'Actor ID',
    'API token',
    'Action',
    'Subject kind',
    'Subject ID',
    'Subject',
    'IP address',
    'User agent',
    'Details',
  ],
} as const;

/**
 * The entries as CSV for spreadsheets: UTF-8 with a byte order mark (Excel in Japan reads UTF-8
 * without one as Shift_JIS), CRLF rows, times in the account's zone. A cell a spreadsheet would
 * run as a formula (=, +, -, @ first) is led by an apostrophe: site labels are anyone's text.
 */
export function auditCsv(entries: readonly AuditEntryRecord[], lang: 'ja' | 'en', timeZone: string): string {
  const zone = knownZone(timeZone);
  const headers: string[] = [...CSV_HEADERS[lang]];
  headers[0] = `${headers[0]} (${zone})`;
  const time = new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });
  const rows = entries.map((entry) => [
    time.format(entry.at),
    entry.actorLabel,
    entry.actorPersonId ?? '',
    entry.actorToken,
    entry.action,
    entry.subjectKind,
    entry.subjectId,
    entry.subjectLabel,
    entry.clientAddress,
    entry.userAgent,
    Object.entries(entry.details)
      .map(([key, value]) => `${key}=${value}`)
      .join('; '),
  ]);
  return `\uFEFF${[headers, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function knownZone(zone: string): string {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}
