import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SecurityHarness, startSecurityHarness } from '../security/security-harness.ts';

// docs/product.md#workspaces: an owner who has a second factor may require one of every member.
// A member without one is then answered only on their own routes (who they are, their sign-in
// security, their workspaces) until they set one up; their own workspace asks nothing of them.
let harness: SecurityHarness;

beforeAll(async () => {
  harness = await startSecurityHarness();
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

/** A confirmed authenticator app, as the security screen leaves it (its flow: two-factor.int.test.ts). */
const confirmTotp = (userId: string) =>
  harness.testHost.db.query(
    `INSERT INTO account.totp_factors (user_id, sealed_secret, created_at, confirmed_at)
     VALUES ($1, 'sealed', now(), now())`,
    [userId],
  );

describe('a workspace that requires two-factor sign-in', () => {
  it('is required only by an owner with a factor, and refuses a member without one until they have one', async () => {
    const owner = await harness.member('strict-owner@example.com');
    const member = await harness.member('strict-member@example.com');
    expect(
      (await owner.browser.post('/api/workspace/invitations', { email: member.email, role: 'editor' }))
        .status,
    ).toBe(200);
    const token = await harness.invitationToken(member.email);
    expect((await member.browser.post('/api/invitations/accept', { token })).status).toBe(200);
    const require = (required: boolean) =>
      owner.browser.post('/api/workspace/security', { two_factor_required: required });

    expect(await require(true)).toMatchObject({
      status: 409,
      body: { error: { code: 'owner_needs_second_factor' } },
    });
    await confirmTotp(owner.userId);
    const required = await require(true);
    expect(required.status, required.text).toBe(200);
    expect(required.body).toMatchObject({ two_factor_required: true });
    expect(
      (required.body.members as { email: string; has_second_factor: boolean }[]).map((each) => [
        each.email,
        each.has_second_factor,
      ]),
    ).toEqual([
      [owner.email, true],
      [member.email, false],
    ]);

    // Every workspace route refuses the member, reads as much as changes, with the reason.
    for (const [method, path] of [
      ['GET', '/api/v2/targets'],
      ['GET', '/api/account'],
      ['GET', '/api/workspace/members'],
    ] as const) {
      const answer = method === 'GET' ? await member.browser.get(path) : await member.browser.post(path, {});
      expect(answer, path).toMatchObject({ status: 403, body: { error: { code: 'two_factor_required' } } });
    }
    // Their own routes still answer: who they are, their security screen, their workspaces.
    expect((await member.browser.get('/api/user_info')).status).toBe(200);
    expect((await member.browser.get('/api/security')).status).toBe(200);
    expect((await member.browser.get('/api/workspaces')).status).toBe(200);
    // The owner, who has a factor, works on.
    expect((await owner.browser.get('/api/v2/targets')).status).toBe(200);

    // Their own workspace asks nothing of them.
    await member.browser.post('/api/workspaces/switch', { workspace_id: member.userId });
    expect((await member.browser.get('/api/v2/targets')).status).toBe(200);
    await member.browser.post('/api/workspaces/switch', { workspace_id: owner.userId });
    expect((await member.browser.get('/api/v2/targets')).status).toBe(403);

    // With a factor of their own, the workspace answers them as its editor again.
    await confirmTotp(member.userId);
    expect((await member.browser.get('/api/v2/targets')).status).toBe(200);
    expect(
      await member.browser.post('/api/workspace/security', { two_factor_required: false }),
    ).toMatchObject({
      status: 403,
      body: { error: { code: 'role_forbidden' } },
    });
    expect((await require(false)).body).toMatchObject({ two_factor_required: false });
  });
});
