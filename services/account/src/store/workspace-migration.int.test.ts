import { writeFile } from 'node:fs/promises';
import { type Db, migrate, openPglite, openPostgres } from '@mimamori/db';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { createFreshDatabase, type FreshDatabase } from '@mimamori/test-fixtures';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccountStore } from './account-store.ts';
import { ACCOUNT_SCHEMA, accountMigrations } from './migrations.ts';

// ADR 0033: the migration that makes every account its person's personal workspace must lose
// nothing. Real-shaped data (accounts in each subscription state, with billing, mail addresses,
// sessions, link tokens, webhooks, chat links and their codes, API and feed tokens, receipt
// recipients, deleted sites, support requests, cancellation feedback, site usage, audit entries) is written under
// the migrations before it, then the migration runs on the single-process product's embedded
// database and on real PostgreSQL: every table keeps every row unchanged, and each account is a
// workspace its own person owns, which its sessions open.
const WORKSPACES_VERSION = 12;
const COUNTS_FILE = process.env.MIGRATION_COUNTS_FILE ?? '';

const ids = {
  trial: '00000000-0000-4000-8000-000000000001',
  active: '00000000-0000-4000-8000-000000000002',
  held: '00000000-0000-4000-8000-000000000003',
  deleted: '00000000-0000-4000-8000-000000000004',
  x: '00000000-0000-4000-8000-000000000005',
};
const users = Object.values(ids);

const SEED = `
  INSERT INTO users (id, email, password_hash, lang, timezone, currency, created_at, name, email_verified_at, x_subject, deleted_at, discord_webhook_sealed, discord_state, purge_at, quiet_hours) VALUES
    ('${ids.trial}', 'trial@example.com', '$argon2id$hash-1', 'ja', 'Asia/Tokyo', 'JPY', '2026-01-05T01:00:00Z', '試用 太郎', '2026-01-05T01:05:00Z', NULL, NULL, NULL, 'not_set', NULL, NULL),
    ('${ids.active}', 'Active@Example.com', '$argon2id$hash-2', 'en', 'Europe/Berlin', 'USD', '2025-06-01T09:00:00Z', 'Acme GmbH', '2025-06-01T09:10:00Z', NULL, NULL, 'sealed:discord', 'linked', NULL, '{"from":"22:00","until":"07:00","allDay":[0],"holidays":true,"alertsBreakThrough":true}'),
    ('${ids.held}', 'held@example.com', '$argon2id$hash-3', 'ja', NULL, 'JPY', '2025-02-01T00:00:00Z', '', '2025-02-01T00:00:00Z', NULL, NULL, NULL, 'broken', NULL, NULL),
    ('${ids.deleted}', 'gone@example.com', '$argon2id$hash-4', 'ja', 'Asia/Tokyo', 'JPY', '2024-11-11T00:00:00Z', '', NULL, NULL, '2026-11-01T00:00:00Z', NULL, 'not_set', '2026-12-01T00:00:00Z', NULL),
    ('${ids.x}', NULL, NULL, 'ja', 'Asia/Tokyo', 'JPY', '2026-03-03T03:03:03Z', 'X user', NULL, 'x-subject-42', NULL, NULL, 'not_set', NULL, NULL);
  INSERT INTO subscriptions (user_id, plan, cycle, options, status, trial_ends_at, delete_at, has_card) VALUES
    ('${ids.trial}', 3, 'month', '{}', 1, '2026-01-19T01:00:00Z', NULL, false),
    ('${ids.active}', 6, 'year', '{ss,random_ip}', 2, NULL, NULL, true),
    ('${ids.held}', 2, 'month', '{}', 7, NULL, '2026-12-30T00:00:00Z', true),
    ('${ids.deleted}', 1, 'month', '{}', 9, NULL, NULL, false),
    ('${ids.x}', 3, 'month', '{}', 1, '2026-03-17T03:03:03Z', NULL, false);
  INSERT INTO billing_accounts (user_id, currency, customer_id, subscription_id, provider_status, period_end, card_brand, card_last4, card_exp_month, card_exp_year, booked_plan, booked_cycle, booked_options) VALUES
    ('${ids.active}', 'USD', 'cus_active', 'sub_active', 'active', '2027-06-01T09:00:00Z', 'visa', '4242', 12, 2030, 4, 'year', '{ss}'),
    ('${ids.held}', 'JPY', 'cus_held', 'sub_held', 'past_due', '2026-12-01T00:00:00Z', 'mastercard', '4444', 1, 2027, NULL, NULL, NULL);
  INSERT INTO billing_webhook_events (event_id, type) VALUES ('evt_1', 'invoice.paid'), ('evt_2', 'invoice.payment_failed');
  INSERT INTO mail_addresses (id, user_id, position, email, verified_at, created_at) VALUES
    ('10000000-0000-4000-8000-000000000001', '${ids.active}', 0, 'ops@acme.example', '2025-06-02T00:00:00Z', '2025-06-02T00:00:00Z'),
    ('10000000-0000-4000-8000-000000000002', '${ids.active}', 1, 'cfo@acme.example', NULL, '2025-06-03T00:00:00Z'),
    ('10000000-0000-4000-8000-000000000003', '${ids.trial}', 0, 'trial-2@example.com', NULL, '2026-01-06T00:00:00Z');
  INSERT INTO sessions (token_hash, user_id, created_at, expires_at) VALUES
    ('session-trial-1', '${ids.trial}', '2026-12-01T00:00:00Z', '2099-01-01T00:00:00Z'),
    ('session-active-1', '${ids.active}', '2026-12-01T00:00:00Z', '2099-01-01T00:00:00Z'),
    ('session-active-2', '${ids.active}', '2026-12-02T00:00:00Z', '2099-01-01T00:00:00Z'),
    ('session-held-1', '${ids.held}', '2026-12-01T00:00:00Z', '2099-01-01T00:00:00Z'),
    ('session-deleted-1', '${ids.deleted}', '2026-10-01T00:00:00Z', '2099-01-01T00:00:00Z'),
    ('session-x-1', '${ids.x}', '2026-12-01T00:00:00Z', '2099-01-01T00:00:00Z');
  INSERT INTO tokens (token_hash, kind, user_id, subject, created_at, expires_at, used_at) VALUES
    ('link-1', 'verify_email', '${ids.trial}', '', '2026-01-05T01:00:00Z', '2026-01-06T01:00:00Z', '2026-01-05T01:05:00Z'),
    ('link-2', 'reset_password', '${ids.active}', '', '2026-12-01T00:00:00Z', '2099-01-01T00:00:00Z', NULL),
    ('link-3', 'support_follow_up', '${ids.held}', 'support-1', '2026-12-01T00:00:00Z', '2099-01-01T00:00:00Z', NULL);
  INSERT INTO sign_in_failures (account_key, client_address, failed_at) VALUES
    ('held@example.com', '203.0.113.7', '2026-12-01T00:00:00Z'), ('held@example.com', '203.0.113.7', '2026-12-01T00:01:00Z');
  INSERT INTO support_requests (id, user_id, type, notes, created_at) VALUES
    ('20000000-0000-4000-8000-000000000001', '${ids.held}', 'billing', 'カードを変えたい', '2026-12-01T00:00:00Z');
  INSERT INTO cancellation_feedback (id, user_id, reasons, comment, created_at) VALUES
    ('30000000-0000-4000-8000-000000000001', '${ids.deleted}', '{price,features}', 'too dear', '2026-11-01T00:00:00Z');
  INSERT INTO site_usage (user_id, revision, min60, min10, min1, random_ip, ss, line_notify) VALUES
    ('${ids.active}', 17, 3, 2, 1, 1, 2, 0), ('${ids.trial}', 2, 1, 0, 0, 0, 0, 0);
  INSERT INTO webhooks (id, user_id, target_id, url, sealed_secret, created_at, secret_rotated_at) VALUES
    ('40000000-0000-4000-8000-000000000001', '${ids.active}', '', 'https://hooks.acme.example/all', 'sealed:whsec-1', '2025-07-01T00:00:00Z', '2025-07-01T00:00:00Z'),
    ('40000000-0000-4000-8000-000000000002', '${ids.active}', 'site-9', 'https://hooks.acme.example/site', 'sealed:whsec-2', '2025-07-02T00:00:00Z', '2026-01-01T00:00:00Z'),
    ('40000000-0000-4000-8000-000000000003', '${ids.held}', '', 'https://held.example/hook', 'sealed:whsec-3', '2025-03-01T00:00:00Z', '2025-03-01T00:00:00Z');
  INSERT INTO api_tokens (id, user_id, name, token_hash, scopes, created_at, expires_at, last_used_at) VALUES
    ('50000000-0000-4000-8000-000000000001', '${ids.active}', 'ci', 'api-hash-1', '{read,write}', '2026-01-01T00:00:00Z', '2099-01-01T00:00:00Z', '2026-12-01T00:00:00Z'),
    ('50000000-0000-4000-8000-000000000002', '${ids.trial}', 'reader', 'api-hash-2', '{read}', '2026-01-07T00:00:00Z', '2026-02-07T00:00:00Z', NULL);
  INSERT INTO feed_tokens (user_id, token_hash, sealed_token, rotated_at) VALUES
    ('${ids.active}', 'feed-hash-1', 'sealed:feed-1', '2026-01-01T00:00:00Z');
  INSERT INTO chat_links (id, user_id, platform, target_id, label, sealed_credentials, digests, status, broken_reason, broken_at, broken_mail_sent, created_at, version) VALUES
    ('60000000-0000-4000-8000-000000000001', '${ids.active}', 'slack', '', '#prices', 'sealed:slack', '{d1,d2}', 'linked', '', NULL, false, '2026-02-01T00:00:00Z', 3),
    ('60000000-0000-4000-8000-000000000002', '${ids.held}', 'line', 'site-3', 'LINE', 'sealed:line', '{d3}', 'broken', 'revoked', '2026-11-01T00:00:00Z', true, '2025-04-01T00:00:00Z', 1);
  INSERT INTO chat_link_codes (code_hash, user_id, platform, target_id, relink_id, expires_at, used_at) VALUES
    ('code-1', '${ids.active}', 'telegram', '', '', '2099-01-01T00:00:00Z', NULL);
  INSERT INTO invoice_recipients (user_id, name, revision, updated_at) VALUES
    ('${ids.active}', 'Acme GmbH, Buchhaltung', 2, '2026-01-01T00:00:00Z');
  INSERT INTO gone_targets (user_id, target_id) VALUES ('${ids.active}', 'site-1'), ('${ids.deleted}', 'site-7');
  INSERT INTO audit_entries (workspace_id, at, actor_person_id, actor_label, action, subject_kind, subject_id, subject_label, client_address, user_agent, details) VALUES
    ('${ids.active}', '2026-12-01T00:00:00Z', '${ids.active}', 'Acme GmbH <Active@Example.com>', 'site.created', 'site', 'site-9', 'Prices', '203.0.113.9', 'Firefox', '{}'),
    ('${ids.active}', '2026-12-02T00:00:00Z', NULL, 'Stripe', 'billing.provider_event', '', '', '', '', '', '{"event":"invoice_paid"}');
`;

type Counts = Record<string, number>;
const report: string[] = [];

async function tables(db: Db): Promise<string[]> {
  const { rows } = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name`,
    [ACCOUNT_SCHEMA],
  );
  return rows.map((row) => row.table_name);
}

async function counts(db: Db): Promise<Counts> {
  const result: Counts = {};
  for (const table of await tables(db)) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${ACCOUNT_SCHEMA}.${table}`,
    );
    result[table] = rows[0]?.n ?? -1;
  }
  return result;
}

/** Every row of every table as it was, in its columns before the migration, in one order. */
async function snapshot(db: Db, columnsOf: Map<string, string[]>): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const [table, columns] of columnsOf) {
    if (table === 'schema_migrations') continue;
    const list = columns.map((column) => `"${column}"`).join(', ');
    const { rows } = await db.query(`SELECT ${list} FROM ${ACCOUNT_SCHEMA}.${table} ORDER BY ${list}`);
    result[table] = rows.map((row) => JSON.stringify(row));
  }
  return result;
}

async function columns(db: Db): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  for (const table of await tables(db)) {
    const { rows } = await db.query<{ column_name: string; data_type: string }>(
      `SELECT column_name, data_type FROM information_schema.columns
        WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
      [ACCOUNT_SCHEMA, table],
    );
    // jsonb and arrays order fine as text; cast nothing, compare the values as the driver reads them.
    result.set(
      table,
      rows.map((row) => row.column_name),
    );
  }
  return result;
}

function table(title: string, before: Counts, after: Counts): string {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const lines = names.map(
    (name) =>
      `  ${name.padEnd(24)} ${String(before[name] ?? '-').padStart(6)} ${String(after[name] ?? '-').padStart(6)}`,
  );
  return [
    `${title}`,
    `  ${'table'.padEnd(24)} ${'before'.padStart(6)} ${'after'.padStart(6)}`,
    ...lines,
  ].join('\n');
}

async function proveMigration(db: Db, mode: string) {
  const applied = await migrate(
    db,
    ACCOUNT_SCHEMA,
    // Every migration the product had before this one, whatever its number (the audit log's came
    // first): the order a running product meets them in.
    accountMigrations.filter((migration) => migration.version !== WORKSPACES_VERSION),
  );
  expect(applied).not.toContain(WORKSPACES_VERSION);
  await db.exec(`SET search_path TO ${ACCOUNT_SCHEMA}, public; ${SEED} SET search_path TO public;`);
  const before = await counts(db);
  const columnsBefore = await columns(db);
  const rowsBefore = await snapshot(db, columnsBefore);

  expect(await migrate(db, ACCOUNT_SCHEMA, accountMigrations)).toEqual([WORKSPACES_VERSION]);

  const after = await counts(db);
  const printed = table(
    `${mode}: account schema rows before and after migration ${WORKSPACES_VERSION}`,
    before,
    after,
  );
  console.log(printed);
  report.push(printed);

  // Nothing lost or changed: every table had these rows before and has them, unchanged, after.
  expect(await snapshot(db, columnsBefore)).toEqual(rowsBefore);
  for (const [name, n] of Object.entries(before)) {
    expect([name, after[name]]).toEqual([name, name === 'schema_migrations' ? n + 1 : n]);
  }
  // Added: one membership per account (its person owns it), nothing else yet.
  expect([after.memberships, after.invitations]).toEqual([users.length, 0]);
  const { rows: owners } = await db.query<{ workspace_id: string; person_id: string; role: string }>(
    `SELECT workspace_id, person_id, role FROM ${ACCOUNT_SCHEMA}.memberships ORDER BY workspace_id`,
  );
  expect(owners).toEqual([...users].sort().map((id) => ({ workspace_id: id, person_id: id, role: 'owner' })));
  // Every row that names an account still names one that exists.
  const { rows: dangling } = await db.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM ${ACCOUNT_SCHEMA}.sessions s WHERE NOT EXISTS (SELECT 1 FROM ${ACCOUNT_SCHEMA}.users u WHERE u.id = s.user_id))
          + (SELECT count(*) FROM ${ACCOUNT_SCHEMA}.webhooks w WHERE NOT EXISTS (SELECT 1 FROM ${ACCOUNT_SCHEMA}.users u WHERE u.id = w.user_id))
          + (SELECT count(*) FROM ${ACCOUNT_SCHEMA}.chat_links c WHERE NOT EXISTS (SELECT 1 FROM ${ACCOUNT_SCHEMA}.users u WHERE u.id = c.user_id))
          + (SELECT count(*) FROM ${ACCOUNT_SCHEMA}.api_tokens t WHERE NOT EXISTS (SELECT 1 FROM ${ACCOUNT_SCHEMA}.users u WHERE u.id = t.user_id))
          + (SELECT count(*) FROM ${ACCOUNT_SCHEMA}.subscriptions t WHERE NOT EXISTS (SELECT 1 FROM ${ACCOUNT_SCHEMA}.users u WHERE u.id = t.user_id))
          AS n`,
  );
  expect(Number(dangling[0]?.n)).toBe(0);

  // Each session made before opens its own account's workspace, as its owner; an ended account's
  // session still reads as ended.
  const store = createAccountStore(db, createSecretBox(generateSecretKey('test')));
  const now = new Date('2026-12-06T00:00:00Z');
  const { rows: sessions } = await db.query<{ token_hash: string; user_id: string }>(
    `SELECT token_hash, user_id FROM ${ACCOUNT_SCHEMA}.sessions ORDER BY token_hash`,
  );
  for (const session of sessions) {
    expect(await store.findSession(session.token_hash, now)).toEqual({
      userId: session.user_id,
      personId: session.user_id,
      role: 'owner',
      deleted: session.user_id === ids.deleted,
    });
  }
  // Migrating again changes nothing.
  expect(await migrate(db, ACCOUNT_SCHEMA, accountMigrations)).toEqual([]);
  expect(await counts(db)).toEqual(after);
}

const opened: { db: Db; fresh?: FreshDatabase }[] = [];

afterAll(async () => {
  for (const { db, fresh } of opened) {
    await db.close();
    await fresh?.drop();
  }
  if (COUNTS_FILE && report.length > 0) await writeFile(COUNTS_FILE, `${report.join('\n\n')}\n`);
});

describe('migration 12: every account becomes its person’s personal workspace, losing nothing', () => {
  it('on the single-process product’s embedded database (PGlite)', async () => {
    const db = await openPglite();
    opened.push({ db });
    await proveMigration(db, 'PGlite (single process)');
  }, 60_000);

  it('on real PostgreSQL (cluster mode)', async () => {
    const fresh = await createFreshDatabase();
    const db = await openPostgres(fresh.url);
    opened.push({ db, fresh });
    await proveMigration(db, 'PostgreSQL (cluster)');
  }, 60_000);
});
