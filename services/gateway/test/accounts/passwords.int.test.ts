import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountHarness, linkIn, startAccountHarness, tokenIn } from './account-harness.ts';

let harness: AccountHarness;

beforeAll(async () => {
  harness = await startAccountHarness();
});

afterAll(async () => {
  await harness?.close();
});

async function signedIn(email: string, password = 'abcd1234') {
  const browser = await harness.browser();
  await browser.post('/api/signup', { email, password, agree: true, lang: 'en' });
  await browser.post('/api/verify', { token: tokenIn(await harness.mailTo(email, /confirm your e-mail/)) });
  expect((await browser.post('/api/signin', { email, password })).status).toBe(200);
  return browser;
}

describe('password reset', () => {
  it('mails a single-use reset link that sets a new password and ends every session', async () => {
    const browser = await signedIn('reset@example.com');
    const stranger = await harness.browser();
    const requested = await stranger.post('/api/reset_pass/request', { email: 'reset@example.com' });
    const unknown = await stranger.post('/api/reset_pass/request', { email: 'nobody@example.com' });
    expect(requested).toMatchObject({ status: 202, body: { status: 'reset_requested' } });
    expect(unknown.body).toEqual(requested.body);

    const mail = await harness.mailTo('reset@example.com', /reset your password/);
    const link = linkIn(mail);
    expect(link.pathname).toBe('/reset_pass');
    expect(mail.html).toContain('/reset_pass?token=');
    expect(harness.mailsTo('nobody@example.com')).toHaveLength(0);

    const token = tokenIn(mail);
    expect(await stranger.post('/api/reset_pass', { token, password: 'short' })).toMatchObject({
      status: 400,
      body: { error: { code: 'password_too_short' } },
    });
    expect(await stranger.post('/api/reset_pass', { token, password: 'new-pass-99' })).toMatchObject({
      status: 200,
      body: { status: 'password_reset' },
    });
    expect(await stranger.post('/api/reset_pass', { token, password: 'new-pass-00' })).toMatchObject({
      status: 404,
      body: { error: { code: 'reset_link_invalid', message_key: 'errors.reset_link_invalid' } },
    });
    expect((await browser.get('/api/user_info')).status).toBe(401);

    const old = await harness.browser();
    expect((await old.post('/api/signin', { email: 'reset@example.com', password: 'abcd1234' })).status).toBe(
      401,
    );
    expect(
      (await old.post('/api/signin', { email: 'reset@example.com', password: 'new-pass-99' })).status,
    ).toBe(200);
  });

  it('refuses an expired reset link', async () => {
    await signedIn('expired@example.com');
    const browser = await harness.browser();
    await browser.post('/api/reset_pass/request', { email: 'expired@example.com' });
    const token = tokenIn(await harness.mailTo('expired@example.com', /reset your password/));
    harness.clock.advance(61 * 60_000);
    expect(await browser.post('/api/reset_pass', { token, password: 'new-pass-99' })).toMatchObject({
      status: 404,
      body: { error: { code: 'reset_link_invalid' } },
    });
  });
});

describe('password change', () => {
  it('refuses a wrong current password and an unchanged one, then changes it and keeps only this session', async () => {
    const browser = await signedIn('change@example.com');
    const other = await harness.browser();
    await other.post('/api/signin', { email: 'change@example.com', password: 'abcd1234' });

    expect(
      await browser.post('/api/account/password', {
        current_password: 'nope-nope',
        new_password: 'efgh5678',
      }),
    ).toMatchObject({ status: 400, body: { error: { code: 'current_password_mismatch' } } });
    expect(
      await browser.post('/api/account/password', { current_password: 'abcd1234', new_password: 'abcd1234' }),
    ).toMatchObject({ status: 400, body: { error: { code: 'no_changes' } } });
    expect(
      await browser.post('/api/account/password', { current_password: 'abcd1234', new_password: 'efgh5678' }),
    ).toMatchObject({ status: 200, body: { status: 'password_changed' } });

    expect((await browser.get('/api/user_info')).status).toBe(200);
    expect((await other.get('/api/user_info')).status).toBe(401);
    const fresh = await harness.browser();
    expect(
      (await fresh.post('/api/signin', { email: 'change@example.com', password: 'efgh5678' })).status,
    ).toBe(200);
  });

  it('needs a session and the CSRF header', async () => {
    const signedOut = await harness.browser();
    expect(
      (await signedOut.post('/api/account/password', { current_password: 'a', new_password: 'abcd1234' }))
        .status,
    ).toBe(401);
    const browser = await signedIn('csrf@example.com');
    browser.cookies.set('csrf_token', 'forged');
    const response = await harness.gateway.app.inject({
      method: 'POST',
      url: '/api/account/password',
      cookies: Object.fromEntries(browser.cookies),
      payload: { current_password: 'abcd1234', new_password: 'efgh5678' },
    });
    expect(response.statusCode).toBe(403);
  });
});
