import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountHarness, startAccountHarness, tokenIn } from './account-harness.ts';
import type { TestBrowser } from './test-browser.ts';

let harness: AccountHarness;
let alice: TestBrowser;
let bob: TestBrowser;
let aliceId: string;
let bobId: string;

async function signedIn(email: string): Promise<TestBrowser> {
  const browser = await harness.browser();
  await browser.post('/api/signup', { email, password: 'abcd1234', agree: true, lang: 'en' });
  await browser.post('/api/verify', { token: tokenIn(await harness.mailTo(email, /confirm your e-mail/)) });
  await browser.post('/api/signin', { email, password: 'abcd1234' });
  return browser;
}

beforeAll(async () => {
  harness = await startAccountHarness();
  alice = await signedIn('alice@example.com');
  bob = await signedIn('bob@example.com');
  aliceId = String((await alice.get('/api/account')).body.user_id);
  bobId = String((await bob.get('/api/account')).body.user_id);
});

afterAll(async () => {
  await harness?.close();
});

async function bobsAccountRow() {
  const { rows } = await harness.db.query(
    `SELECT name, lang, timezone, currency, password_hash, discord_state FROM account.users WHERE id = $1`,
    [bobId],
  );
  return rows[0];
}

describe('tenant isolation: with two accounts, each endpoint refuses the other account’s data', () => {
  it('reads only the session’s own account in user_info and /api/account', async () => {
    expect((await alice.get('/api/user_info')).body).toMatchObject({
      user_id: aliceId,
      mails: ['alice@example.com'],
    });
    expect((await bob.get('/api/account')).body).toMatchObject({ user_id: bobId, email: 'bob@example.com' });
    expect(aliceId).not.toBe(bobId);
  });

  it('refuses an update naming the other user_id and changes nothing', async () => {
    const before = await bobsAccountRow();
    const response = await alice.post('/api/account/update', {
      user_id: bobId,
      timezone: 'Asia/Tokyo',
      name: 'Mallory',
    });
    expect(response).toMatchObject({ status: 403, body: { error: { code: 'forbidden' } } });
    expect(await bobsAccountRow()).toEqual(before);
    expect((await alice.get('/api/account')).body).toMatchObject({ timezone: '', name: '' });
  });

  it('cannot remove the other account’s additional address', async () => {
    await bob.post('/api/account/mails', { email: 'bob-extra@example.com' });
    const bobsMail = ((await bob.get('/api/account')).body.mails as { id: string }[])[0];
    expect(await alice.post('/api/account/mails/delete', { mail_id: bobsMail?.id })).toMatchObject({
      status: 404,
      body: { error: { code: 'mail_not_found' } },
    });
    expect((await bob.get('/api/account')).body.mails).toHaveLength(1);
  });

  it('cannot verify an address into the other account, nor see it in its own', async () => {
    const mail = await harness.mailTo('bob-extra@example.com', /notification address/);
    await alice.post('/api/verify', { token: tokenIn(mail) });
    expect((await alice.get('/api/user_info')).body.mails).toEqual(['alice@example.com']);
    expect((await bob.get('/api/user_info')).body.mails).toEqual([
      'bob@example.com',
      'bob-extra@example.com',
    ]);
  });

  it('changes only its own password, Discord link and support requests', async () => {
    const before = await bobsAccountRow();
    await alice.post('/api/account/password', { current_password: 'abcd1234', new_password: 'alice-new-1' });
    await alice.post('/api/account/discord/delete');
    await alice.post('/api/support', { type: 'other', notes: 'mine' });
    expect(await bobsAccountRow()).toEqual(before);
    const { rows } = await harness.db.query<{ user_id: string }>(
      'SELECT user_id FROM account.support_requests',
    );
    expect(rows.map((row) => row.user_id)).toEqual([aliceId]);
  });

  it('cannot take over the other account’s sign-in address', async () => {
    const requested = await alice.post('/api/account/email', { email: 'bob@example.com' });
    expect(requested.status).toBe(202);
    const mail = await harness.mailTo('bob@example.com', /new e-mail address/);
    expect((await alice.post('/api/verify', { token: tokenIn(mail) })).status).toBe(404);
    expect((await alice.get('/api/account')).body).toMatchObject({ email: 'alice@example.com' });
    expect((await bob.get('/api/account')).body).toMatchObject({ email: 'bob@example.com' });
  });

  it('signs out only its own session', async () => {
    const other = await harness.browser();
    await other.post('/api/signin', { email: 'bob@example.com', password: 'abcd1234' });
    await alice.get('/api/signout');
    expect((await bob.get('/api/user_info')).status).toBe(200);
    expect((await other.get('/api/user_info')).status).toBe(200);
  });
});
