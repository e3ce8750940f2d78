import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { accountV1, auditV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { createGrpcClient, unary } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { startTestServiceHost, type TestServiceHost } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionToken } from './domain/session-token.ts';
import { createAccountService } from './service.ts';

// The audit log in the account service (ADR 0036): who is named for an action, what one
// workspace sees of another's, the database refusing changes, and the retention sweep on an
// injected clock.

const DAY_MS = 86_400_000;
let testHost: TestServiceHost;
let db: Db;
let accounts: accountV1.AccountServiceClient;
let audit: auditV1.AuditServiceClient;
let now = new Date('2026-03-01T00:00:00Z');

beforeAll(async () => {
  testHost = await startTestServiceHost('account-audit-log');
  db = testHost.db;
  const running = await runService(
    createAccountService({
      db,
      logger: testHost.logger,
      secretBox: createSecretBox(generateSecretKey('test')),
      clock: { now: () => now },
      // The sweep runs this often; the clock it reads is moved by the test.
      sweepIntervalMs: 50,
    }),
    testHost.host,
  );
  accounts = createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress);
  audit = createGrpcClient(auditV1.AuditServiceClient, running.grpcAddress);
}, 60_000);

afterAll(async () => {
  accounts?.close();
  audit?.close();
  await testHost?.close();
});

async function signedIn(name = '') {
  const email = `a${randomUUID().slice(0, 8)}@example.jp`;
  const { userId } = await unary(accounts, 'createAccount', { email, password: 'abcd1234', lang: 'ja' });
  if (name) await db.query('UPDATE account.users SET name = $2 WHERE id = $1', [userId, name]);
  const sessionToken = randomUUID();
  await db.query(`INSERT INTO account.sessions (token_hash, user_id, expires_at) VALUES ($1, $2, $3)`, [
    hashSessionToken(sessionToken),
    userId,
    new Date(now.getTime() + 1_000 * DAY_MS),
  ]);
  return { sessionToken, userId, email };
}

const client = { address: '203.0.113.7', userAgent: 'Mozilla/5.0 (audit test)' };
const record = (sessionToken: string, action: string, subjectId = 'site-1', details = {}) =>
  unary(audit, 'recordAuditEntry', {
    sessionToken,
    action,
    subjectKind: 'site',
    subjectId,
    subjectLabel: `label of ${subjectId}`,
    client,
    details,
  });

describe('recording', () => {
  it('names the person as they are now, and keeps that label after they change', async () => {
    const alice = await signedIn('Alice');
    await record(alice.sessionToken, 'site.created');
    await db.query('UPDATE account.users SET name = $2 WHERE id = $1', [alice.userId, 'Alice Renamed']);
    await record(alice.sessionToken, 'site.edited', 'site-1', { fields: 'label', password: 'hunter2' });
    const { entries } = await unary(audit, 'listAuditEntries', { sessionToken: alice.sessionToken, page: 1 });
    expect(
      entries.map((entry) => [entry.action, entry.actorLabel, entry.actorPersonId, entry.clientAddress]),
    ).toEqual([
      ['site.edited', `Alice Renamed <${alice.email}>`, alice.userId, '203.0.113.7'],
      ['site.created', `Alice <${alice.email}>`, alice.userId, '203.0.113.7'],
    ]);
    // A detail named like a secret is dropped whatever the caller sends.
    expect(entries[0]?.details).toEqual({ fields: 'label' });
    expect(entries[0]?.userAgent).toBe(client.userAgent);
  });

  it('names an API token caller as the token, on behalf of its owner', async () => {
    const owner = await signedIn('Owner');
    const made = await unary(accounts, 'createApiToken', {
      sessionToken: owner.sessionToken,
      name: 'deploy script',
      scopes: ['write'],
      expiresInDays: 30,
    });
    await record(made.secret, 'site.paused');
    const { entries } = await unary(audit, 'listAuditEntries', { sessionToken: owner.sessionToken, page: 1 });
    expect(entries[0]).toMatchObject({
      action: 'site.paused',
      actorPersonId: owner.userId,
      actorToken: 'deploy script',
      actorLabel: `Owner <${owner.email}>`,
    });
    // The token cannot read the log it writes to.
    await expect(
      unary(audit, 'listAuditEntries', { sessionToken: made.secret, page: 1 }),
    ).rejects.toMatchObject({ code: status.PERMISSION_DENIED, details: 'session_required' });
  });

  it('refuses an unknown session and an action outside the catalogue, writing nothing', async () => {
    const someone = await signedIn();
    await expect(record(randomUUID(), 'site.created')).rejects.toMatchObject({
      code: status.UNAUTHENTICATED,
    });
    await expect(record(someone.sessionToken, 'site.exploded!')).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
    await expect(record(someone.sessionToken, 'nuclear.launched')).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
    const { total } = await unary(audit, 'listAuditEntries', { sessionToken: someone.sessionToken, page: 1 });
    expect(total).toBe(0);
  });

  it('records a refused sign-in in the account the address names, and nothing for an unknown address', async () => {
    const victim = await signedIn();
    const before = await db.query('SELECT count(*)::int AS n FROM account.audit_entries');
    await unary(audit, 'recordFailedSignIn', { email: 'nobody@example.jp', client });
    const after = await db.query('SELECT count(*)::int AS n FROM account.audit_entries');
    expect(after.rows[0]).toEqual(before.rows[0]);
    await unary(audit, 'recordFailedSignIn', { email: victim.email.toUpperCase(), client });
    const { entries } = await unary(audit, 'listAuditEntries', {
      sessionToken: victim.sessionToken,
      page: 1,
    });
    expect(entries.map((entry) => [entry.action, entry.actorPersonId, entry.clientAddress])).toEqual([
      ['signin.failed', '', '203.0.113.7'],
    ]);
  });
});

describe('reading', () => {
  it('shows a workspace its own entries only, whatever filter names another', async () => {
    const alice = await signedIn('Alice');
    const bob = await signedIn('Bob');
    await record(alice.sessionToken, 'site.created', 'alice-site');
    await record(bob.sessionToken, 'site.created', 'bob-site');
    for (const filter of [{}, { personId: alice.userId }, { subjectId: 'alice-site' }, { kind: 'site' }]) {
      const seen = await unary(audit, 'listAuditEntries', {
        sessionToken: bob.sessionToken,
        filter: auditV1.AuditFilter.fromPartial(filter),
        page: 1,
      });
      expect(JSON.stringify(seen)).not.toContain('alice-site');
      expect(JSON.stringify(seen)).not.toContain(alice.userId);
      const csv = await unary(audit, 'exportAuditCsv', {
        sessionToken: bob.sessionToken,
        filter: auditV1.AuditFilter.fromPartial(filter),
        lang: 'en',
      });
      expect(Buffer.from(csv.csv).toString('utf8')).not.toContain('alice-site');
    }
  });

  it('filters by person, kind, site and time, and pages by 50', async () => {
    const carol = await signedIn('Carol');
    const start = now;
    for (let index = 0; index < 52; index++) await record(carol.sessionToken, 'site.created', `s${index}`);
    now = new Date(start.getTime() + 60_000);
    await record(carol.sessionToken, 'token.created', 'tok');
    const list = (filter: Partial<auditV1.AuditFilter>, page = 1) =>
      unary(audit, 'listAuditEntries', {
        sessionToken: carol.sessionToken,
        filter: auditV1.AuditFilter.fromPartial(filter),
        page,
      });
    const first = await list({});
    expect([first.total, first.entries.length, first.pageSize, first.retentionDays]).toEqual([
      53, 50, 50, 90,
    ]);
    expect((await list({}, 2)).entries).toHaveLength(3);
    expect((await list({ kind: 'token' })).total).toBe(1);
    expect((await list({ subjectId: 's7' })).total).toBe(1);
    expect((await list({ personId: carol.userId })).total).toBe(53);
    expect((await list({ from: new Date(start.getTime() + 1) })).total).toBe(1);
    expect((await list({ until: new Date(start.getTime() + 1) })).total).toBe(52);
    expect(first.people).toEqual([{ personId: carol.userId, label: `Carol <${carol.email}>` }]);
    await expect(list({ kind: 'nuclear' })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: 'bad_filter',
    });
  });

  it('exports CSV with a byte order mark, headers in the language asked, and formulas defused', async () => {
    const dave = await signedIn('=HYPERLINK("http://evil")');
    await db.query(`UPDATE account.users SET timezone = 'Asia/Tokyo' WHERE id = $1`, [dave.userId]);
    await record(dave.sessionToken, 'site.created', 'csv-site');
    const ja = await unary(audit, 'exportAuditCsv', { sessionToken: dave.sessionToken, lang: 'ja' });
    const text = Buffer.from(ja.csv).toString('utf8');
    expect(text.startsWith('\uFEFF日時 (Asia/Tokyo),実行者,')).toBe(true);
    const row = text.split('\r\n')[1] ?? '';
    expect(row).toContain(`"'=HYPERLINK(""http://evil"") <${dave.email}>"`);
    expect(row).toContain('site.created,site,csv-site,label of csv-site,203.0.113.7');
    expect(ja.filename).toMatch(/^mimamori-audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const en = await unary(audit, 'exportAuditCsv', { sessionToken: dave.sessionToken, lang: 'en' });
    expect(Buffer.from(en.csv).toString('utf8').startsWith('\uFEFFTime (Asia/Tokyo),Actor,Actor ID,')).toBe(
      true,
    );
  });
});

describe('append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE from the product’s own store', async () => {
    const erin = await signedIn();
    await record(erin.sessionToken, 'site.deleted', 'evidence');
    const attempts = [
      `UPDATE account.audit_entries SET action = 'site.created' WHERE subject_id = 'evidence'`,
      `DELETE FROM account.audit_entries WHERE subject_id = 'evidence'`,
      'TRUNCATE account.audit_entries',
    ];
    for (const sql of attempts) {
      await expect(db.query(sql), sql).rejects.toThrow(/append-only/);
    }
    const { rows } = await db.query<{ action: string }>(
      `SELECT action FROM account.audit_entries WHERE subject_id = 'evidence'`,
    );
    expect(rows).toEqual([{ action: 'site.deleted' }]);
  });
});

describe('retention', () => {
  it('sweeps entries past their plan’s days on schedule, and a purged workspace’s at once', async () => {
    const small = await signedIn();
    const large = await signedIn();
    const gone = await signedIn();
    await db.query('UPDATE account.subscriptions SET plan = 3 WHERE user_id = $1', [small.userId]);
    await db.query('UPDATE account.subscriptions SET plan = 11 WHERE user_id = $1', [large.userId]);
    for (const who of [small, large, gone])
      await record(who.sessionToken, 'site.created', `kept-${who.userId}`);
    const count = async (userId: string) =>
      (
        await db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM account.audit_entries WHERE workspace_id = $1',
          [userId],
        )
      ).rows[0]?.n;
    // The purge erased the account: its entries go with the next sweep, though they are young.
    await db.query('DELETE FROM account.users WHERE id = $1', [gone.userId]);
    await expect.poll(() => count(gone.userId), { timeout: 10_000 }).toBe(0);
    expect([await count(small.userId), await count(large.userId)]).toEqual([1, 1]);
    // 100 days on: past Basic 5's 90, inside Advanced's 365.
    now = new Date(now.getTime() + 100 * DAY_MS);
    await expect.poll(() => count(small.userId), { timeout: 10_000 }).toBe(0);
    expect(await count(large.userId)).toBe(1);
    now = new Date(now.getTime() + 300 * DAY_MS);
    await expect.poll(() => count(large.userId), { timeout: 10_000 }).toBe(0);
  });
});
