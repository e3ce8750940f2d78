import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import { type accountsEventsV1, accountV1, workspaceV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { accountMailRequested } from '@mimamori/events';
import { createGrpcClient, unary } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey, type SecretBox } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { startTestServiceHost, type TestServiceHost } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionToken } from './domain/session-token.ts';
import { createAccountService } from './service.ts';

// docs/product.md#workspaces through the account service's own API: invitations by mail (the
// link's token read from the mail event, as the notifier would), accepting, revoking, expiry,
// members per plan, roles, removal, leaving and handing over ownership. The service checks roles
// itself, so these refusals hold even for a caller that is not the gateway.

let testHost: TestServiceHost;
let db: Db;
let box: SecretBox;
let accounts: accountV1.AccountServiceClient;
let workspaces: workspaceV1.WorkspaceServiceClient;

beforeAll(async () => {
  testHost = await startTestServiceHost('account-workspaces');
  db = testHost.db;
  box = createSecretBox(generateSecretKey('test'));
  const running = await runService(
    createAccountService({ db, logger: testHost.logger, secretBox: box }),
    testHost.host,
  );
  accounts = createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress);
  workspaces = createGrpcClient(workspaceV1.WorkspaceServiceClient, running.grpcAddress);
}, 60_000);

afterAll(async () => {
  accounts?.close();
  workspaces?.close();
  await testHost?.close();
});

interface Person {
  sessionToken: string;
  userId: string;
  email: string;
}

async function signedIn(name: string, plan = 3): Promise<Person> {
  const email = `${name}-${randomUUID().slice(0, 8)}@example.jp`;
  const { userId } = await unary(accounts, 'createAccount', { email, password: 'abcd1234', lang: 'ja' });
  await db.query('UPDATE account.subscriptions SET plan = $2 WHERE user_id = $1', [userId, plan]);
  await db.query('UPDATE account.users SET name = $2, email_verified_at = now() WHERE id = $1', [
    userId,
    name,
  ]);
  const sessionToken = randomUUID();
  await db.query(
    `INSERT INTO account.sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
    [hashSessionToken(sessionToken), userId],
  );
  return { sessionToken, userId, email };
}

/** The invitation link's token, as the notifier opens it from the mail event. */
async function mailedToken(
  to: string,
): Promise<{ token: string; event: accountsEventsV1.AccountMailRequested }> {
  const { rows } = await db.query<{ id: string; payload: Buffer }>(
    'SELECT id, payload FROM account.outbox WHERE subject = $1 ORDER BY seq',
    [accountMailRequested.subject],
  );
  const mail = rows
    .map((row) => ({ id: row.id, event: accountMailRequested.decode(row.payload) }))
    .filter(({ event }) => event.to === to && event.kind === 'workspace_invitation')
    .at(-1);
  if (!mail) throw new Error(`no invitation mailed to ${to}`);
  return { token: box.open(mail.event.sealedToken, mail.event.eventId), event: mail.event };
}

async function invite(by: Person, who: Person, role: string) {
  await unary(workspaces, 'inviteMember', { sessionToken: by.sessionToken, email: who.email, role });
  const { token } = await mailedToken(who.email);
  return unary(workspaces, 'acceptInvitation', { sessionToken: who.sessionToken, token });
}

const refusal = (code: number, details: string) => expect.objectContaining({ code, details });
const caller = (person: Person) => unary(accounts, 'getCaller', { sessionToken: person.sessionToken });

describe('workspaces in the account service', () => {
  it('mails an invitation with the workspace, role and inviter; accepting joins with that role and switches the session', async () => {
    const owner = await signedIn('Owner');
    const editor = await signedIn('Editor');
    await unary(workspaces, 'inviteMember', {
      sessionToken: owner.sessionToken,
      email: editor.email,
      role: 'editor',
    });
    const { token, event } = await mailedToken(editor.email);
    expect([event.workspaceName, event.memberRole, event.inviterName, event.userId]).toEqual([
      'Owner',
      'editor',
      'Owner',
      owner.userId,
    ]);
    // Only the hash is stored.
    const stored = await db.query('SELECT * FROM account.invitations WHERE workspace_id = $1', [
      owner.userId,
    ]);
    expect(JSON.stringify(stored.rows)).not.toContain(token);
    const listed = await unary(workspaces, 'listMembers', { sessionToken: owner.sessionToken });
    expect(listed.invitations.map((each) => [each.email, each.role])).toEqual([[editor.email, 'editor']]);

    const joined = await unary(workspaces, 'acceptInvitation', { sessionToken: editor.sessionToken, token });
    expect(joined.workspace).toMatchObject({
      id: owner.userId,
      role: 'editor',
      current: true,
      personal: false,
    });
    expect(await caller(editor)).toEqual({
      workspaceId: owner.userId,
      personId: editor.userId,
      role: 'editor',
      secondFactorMissing: false,
    });
    // user_info is the workspace's: what every other service is asked for.
    const info = await unary(accounts, 'getUserInfo', { sessionToken: editor.sessionToken });
    expect(info.userInfo?.userId).toBe(owner.userId);
    // Used once.
    await expect(
      unary(workspaces, 'acceptInvitation', { sessionToken: editor.sessionToken, token }),
    ).rejects.toEqual(refusal(status.NOT_FOUND, 'invitation_not_found'));
    const after = await unary(workspaces, 'listMembers', { sessionToken: editor.sessionToken });
    expect(after.invitations).toEqual([]);
    expect(after.members.map((each) => [each.email, each.role, each.you])).toEqual([
      [owner.email, 'owner', false],
      [editor.email, 'editor', true],
    ]);
    expect(after.role).toBe('editor');

    // The person lists both workspaces and switches back to their own.
    const list = await unary(workspaces, 'listWorkspaces', { sessionToken: editor.sessionToken });
    expect(list.workspaces.map((each) => [each.id, each.role, each.current, each.personal])).toEqual([
      [editor.userId, 'owner', false, true],
      [owner.userId, 'editor', true, false],
    ]);
    await unary(workspaces, 'switchWorkspace', {
      sessionToken: editor.sessionToken,
      workspaceId: editor.userId,
    });
    expect((await caller(editor)).workspaceId).toBe(editor.userId);
    await expect(
      unary(workspaces, 'switchWorkspace', { sessionToken: editor.sessionToken, workspaceId: randomUUID() }),
    ).rejects.toEqual(refusal(status.NOT_FOUND, 'workspace_not_found'));
  });

  it('refuses a revoked or expired invitation, a second pending one, a member, the owner role, and more people than the plan allows', async () => {
    const owner = await signedIn('Small', 3); // Basic 5: 3 people.
    const a = await signedIn('A');
    const b = await signedIn('B');
    const c = await signedIn('C');
    const invited = (who: Person, role = 'viewer') =>
      unary(workspaces, 'inviteMember', { sessionToken: owner.sessionToken, email: who.email, role });
    await expect(invited(a, 'owner')).rejects.toEqual(refusal(status.INVALID_ARGUMENT, 'invalid_role'));
    await expect(
      unary(workspaces, 'inviteMember', {
        sessionToken: owner.sessionToken,
        email: 'not an address',
        role: 'viewer',
      }),
    ).rejects.toEqual(refusal(status.INVALID_ARGUMENT, 'invalid_email'));

    await invited(a);
    await expect(invited(a)).rejects.toEqual(refusal(status.FAILED_PRECONDITION, 'already_invited'));
    const revokedToken = (await mailedToken(a.email)).token;
    const pending = await unary(workspaces, 'listMembers', { sessionToken: owner.sessionToken });
    await unary(workspaces, 'revokeInvitation', {
      sessionToken: owner.sessionToken,
      invitationId: pending.invitations[0]?.id ?? '',
    });
    await expect(
      unary(workspaces, 'acceptInvitation', { sessionToken: a.sessionToken, token: revokedToken }),
    ).rejects.toEqual(refusal(status.NOT_FOUND, 'invitation_not_found'));

    await invited(b);
    const expiredToken = (await mailedToken(b.email)).token;
    await db.query(
      `UPDATE account.invitations SET expires_at = now() - interval '1 second' WHERE workspace_id = $1`,
      [owner.userId],
    );
    await expect(
      unary(workspaces, 'acceptInvitation', { sessionToken: b.sessionToken, token: expiredToken }),
    ).rejects.toEqual(refusal(status.NOT_FOUND, 'invitation_not_found'));

    // Owner + two members fill Basic 5's three; a pending invitation counts too.
    await invite(owner, a, 'viewer');
    await invited(b);
    await expect(invited(c)).rejects.toEqual(refusal(status.FAILED_PRECONDITION, 'member_limit_reached'));
    await expect(invited(a)).rejects.toEqual(refusal(status.FAILED_PRECONDITION, 'already_member'));
    // A viewer invites nobody, whoever calls the service.
    await expect(
      unary(workspaces, 'inviteMember', { sessionToken: a.sessionToken, email: c.email, role: 'viewer' }),
    ).rejects.toEqual(refusal(status.PERMISSION_DENIED, 'role_forbidden'));
  });

  it('lets an admin change roles and remove members but never the owner; members leave; the owner hands over and becomes admin', async () => {
    const owner = await signedIn('Big', 5);
    const admin = await signedIn('Admin');
    const editor = await signedIn('Ed');
    const viewer = await signedIn('Vi');
    await invite(owner, admin, 'admin');
    await invite(admin, editor, 'editor');
    await invite(owner, viewer, 'viewer');

    await unary(workspaces, 'changeMemberRole', {
      sessionToken: admin.sessionToken,
      personId: viewer.userId,
      role: 'editor',
    });
    expect((await caller(viewer)).role).toBe('editor');
    await expect(
      unary(workspaces, 'changeMemberRole', {
        sessionToken: admin.sessionToken,
        personId: owner.userId,
        role: 'viewer',
      }),
    ).rejects.toEqual(refusal(status.FAILED_PRECONDITION, 'owner_role_fixed'));
    await expect(
      unary(workspaces, 'removeMember', { sessionToken: admin.sessionToken, personId: owner.userId }),
    ).rejects.toEqual(refusal(status.FAILED_PRECONDITION, 'owner_role_fixed'));
    await expect(
      unary(workspaces, 'changeMemberRole', {
        sessionToken: admin.sessionToken,
        personId: admin.userId,
        role: 'owner',
      }),
    ).rejects.toEqual(refusal(status.INVALID_ARGUMENT, 'invalid_role'));
    await expect(
      unary(workspaces, 'changeMemberRole', {
        sessionToken: editor.sessionToken,
        personId: viewer.userId,
        role: 'viewer',
      }),
    ).rejects.toEqual(refusal(status.PERMISSION_DENIED, 'role_forbidden'));

    // Removed: the next request finds the person's own workspace.
    await unary(workspaces, 'removeMember', { sessionToken: admin.sessionToken, personId: viewer.userId });
    expect(await caller(viewer)).toEqual({
      workspaceId: viewer.userId,
      personId: viewer.userId,
      role: 'owner',
      secondFactorMissing: false,
    });
    // Left likewise; the owner cannot leave.
    await unary(workspaces, 'leaveWorkspace', { sessionToken: editor.sessionToken });
    expect((await caller(editor)).workspaceId).toBe(editor.userId);
    await expect(unary(workspaces, 'leaveWorkspace', { sessionToken: owner.sessionToken })).rejects.toEqual(
      refusal(status.INVALID_ARGUMENT, 'owner_cannot_leave'),
    );

    // Only the owner hands over; then the old owner is an admin and the new one owns it.
    await expect(
      unary(workspaces, 'transferOwnership', { sessionToken: admin.sessionToken, personId: admin.userId }),
    ).rejects.toEqual(refusal(status.PERMISSION_DENIED, 'role_forbidden'));
    await expect(
      unary(workspaces, 'transferOwnership', { sessionToken: owner.sessionToken, personId: viewer.userId }),
    ).rejects.toEqual(refusal(status.NOT_FOUND, 'member_not_found'));
    const handed = await unary(workspaces, 'transferOwnership', {
      sessionToken: owner.sessionToken,
      personId: admin.userId,
    });
    expect(handed.members.map((each) => [each.email, each.role])).toEqual([
      [owner.email, 'admin'],
      [admin.email, 'owner'],
    ]);
    expect((await caller(admin)).role).toBe('owner');
    expect((await caller(owner)).role).toBe('admin');
    const owners = await db.query(
      `SELECT count(*)::int AS n FROM account.memberships WHERE workspace_id = $1 AND role = 'owner'`,
      [owner.userId],
    );
    expect(owners.rows[0]).toEqual({ n: 1 });
  });

  it('changes a person’s password on the person, not on the workspace they work in', async () => {
    const owner = await signedIn('Keeper');
    const viewer = await signedIn('Reader');
    await invite(owner, viewer, 'viewer');
    await unary(accounts, 'changePassword', {
      sessionToken: viewer.sessionToken,
      currentPassword: 'abcd1234',
      newPassword: 'efgh5678',
    });
    const { rows } = await db.query<{ id: string; password_hash: string }>(
      'SELECT id, password_hash FROM account.users WHERE id = ANY($1)',
      [[owner.userId, viewer.userId]],
    );
    const hashes = Object.fromEntries(rows.map((row) => [row.id, row.password_hash]));
    expect(hashes[owner.userId]).not.toBe(hashes[viewer.userId]);
    const signIn = (email: string, password: string) =>
      unary(accounts, 'signIn', {
        email,
        password,
        clientAddress: '192.0.2.1',
        previousSessionToken: '',
        userAgent: '',
        deviceToken: '',
      });
    await expect(signIn(owner.email, 'abcd1234')).resolves.toMatchObject({
      sessionToken: expect.any(String),
    });
    await expect(signIn(viewer.email, 'efgh5678')).resolves.toMatchObject({
      sessionToken: expect.any(String),
    });
  });

  it('lets the owner require a second factor once they have one; a member without one is told so until they set one up', async () => {
    const owner = await signedIn('Strict');
    const member = await signedIn('Member');
    await invite(owner, member, 'editor');
    const confirmTotp = (person: Person) =>
      db.query(
        `INSERT INTO account.totp_factors (user_id, sealed_secret, created_at, confirmed_at)
         VALUES ($1, 'sealed', now(), now())`,
        [person.userId],
      );
    const require = (required: boolean) =>
      unary(workspaces, 'setTwoFactorRequired', { sessionToken: owner.sessionToken, required });

    // The owner cannot require what they do not have, and a member cannot require it at all.
    await expect(require(true)).rejects.toEqual(
      refusal(status.FAILED_PRECONDITION, 'owner_needs_second_factor'),
    );
    await expect(
      unary(workspaces, 'setTwoFactorRequired', { sessionToken: member.sessionToken, required: true }),
    ).rejects.toEqual(refusal(status.PERMISSION_DENIED, 'role_forbidden'));
    expect((await caller(member)).secondFactorMissing).toBe(false);

    await confirmTotp(owner);
    const required = await require(true);
    expect(required.twoFactorRequired).toBe(true);
    expect(required.members.map((each) => [each.name, each.hasSecondFactor])).toEqual([
      ['Strict', true],
      ['Member', false],
    ]);
    expect((await caller(owner)).secondFactorMissing).toBe(false);
    expect((await caller(member)).secondFactorMissing).toBe(true);
    // Their own workspace asks nothing of them.
    await unary(workspaces, 'switchWorkspace', {
      sessionToken: member.sessionToken,
      workspaceId: member.userId,
    });
    expect((await caller(member)).secondFactorMissing).toBe(false);
    await unary(workspaces, 'switchWorkspace', {
      sessionToken: member.sessionToken,
      workspaceId: owner.userId,
    });
    // Once the member has a factor (a passkey counts as well as an app), nothing is missing.
    await confirmTotp(member);
    expect((await caller(member)).secondFactorMissing).toBe(false);
    await db.query('DELETE FROM account.totp_factors WHERE user_id = $1', [member.userId]);
    expect((await caller(member)).secondFactorMissing).toBe(true);
    await require(false);
    expect((await caller(member)).secondFactorMissing).toBe(false);
  });
});
