import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountHarness, linkIn, startAccountHarness, tokenIn } from './account-harness.ts';

let harness: AccountHarness;

beforeAll(async () => {
  harness = await startAccountHarness();
});

afterAll(async () => {
  await harness?.close();
});

async function signUpAndVerify(email: string, password = 'abcd1234') {
  const browser = await harness.browser();
  const signUp = await browser.post('/api/signup', { email, password, agree: true, lang: 'en' });
  expect(signUp.status).toBe(202);
  const mail = await harness.mailTo(email, /confirm your e-mail/);
  const verified = await browser.post('/api/verify', { token: tokenIn(mail) });
  expect(verified.body).toEqual({ status: 'verified' });
  return browser;
}

describe('sign-up, verification, sign-in and sign-out', () => {
  it('signs up with a trial, mails a verification link (HTML and text), verifies it, then signs in and out', async () => {
    const browser = await harness.browser();
    const signUp = await browser.post('/api/signup', {
      email: 'hanako@example.jp',
      password: 'abcd1234',
      agree: true,
      lang: 'ja',
      timezone: 'Etc/GMT-9',
    });
    expect(signUp).toMatchObject({ status: 202, body: { status: 'verification_sent' } });

    const mail = await harness.mailTo('hanako@example.jp', /メールアドレスの確認/);
    const link = linkIn(mail);
    expect(`${link.origin}${link.pathname}`).toBe('http://localhost/verify');
    expect(mail.html).toContain(link.toString().replaceAll('&', '&amp;'));
    expect(mail.text).toContain('14日間の無料トライアル');

    // Not verified yet: the right password is told so, a wrong one is not.
    const early = await browser.post('/api/signin', { email: 'hanako@example.jp', password: 'abcd1234' });
    expect(early.body).toEqual({
      error: { code: 'email_not_verified', message_key: 'errors.email_not_verified' },
    });

    const token = tokenIn(mail);
    expect(await browser.post('/api/verify', { token })).toMatchObject({
      status: 200,
      body: { status: 'verified' },
    });
    expect(await browser.post('/api/verify', { token })).toMatchObject({
      status: 200,
      body: { status: 'already_verified' },
    });
    expect(await browser.post('/api/verify', { token: 'x'.repeat(43) })).toMatchObject({
      status: 404,
      body: { error: { code: 'verification_link_invalid' } },
    });

    const signIn = await browser.post('/api/signin', { email: 'HANAKO@example.jp', password: 'abcd1234' });
    expect(signIn).toMatchObject({ status: 200, body: { status: 'signed_in' } });
    const cookie = browser.setCookies.findLast((c) => c.name === 'mimamori_session');
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax' });
    // The SPA's readable hint that a session may exist: it carries no secret.
    const hint = browser.setCookies.findLast((c) => c.name === 'mimamori_signed_in');
    expect(hint).toMatchObject({ value: '1', secure: true, sameSite: 'Lax' });
    expect(hint?.httpOnly).toBeFalsy();
    const session = browser.cookies.get('mimamori_session') ?? '';
    const { rows } = await harness.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM account.sessions',
    );
    expect(rows.map((row) => row.token_hash)).not.toContain(session);

    const info = await browser.get('/api/user_info');
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({
      mails: ['hanako@example.jp'],
      num: { _10min: 5, mail: 3 },
      subscription: { price: 980, status: 1, s_info: { Plan: 3, Cycle: 'month', Options: [] } },
      has_pi: false,
      locale: { Lang: 'ja', Timezone: 'Etc/GMT-9', Currency: 'JPY' },
      role: 'owner',
    });
    // Exactly user_info's keys, nothing more: the spec's, and the caller's role in the workspace
    // (docs/product.md#workspaces).
    expect(Object.keys(info.body).sort()).toEqual(
      [
        'user_id',
        'role',
        'mails',
        'num',
        'used_num',
        'subscription',
        'has_pi',
        'tdedinets',
        'cik_isins',
        'locale',
        'line_url',
        'line_need_setting',
      ].sort(),
    );
    const suspendAt = new Date(String((info.body.subscription as { suspend_at: string }).suspend_at));
    const days = (suspendAt.getTime() - harness.clock.now().getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(14);

    expect(await browser.get('/api/signout')).toMatchObject({ status: 200, body: { status: 'signed_out' } });
    expect(browser.cookies.has('mimamori_session')).toBe(false);
    expect(browser.cookies.has('mimamori_signed_in')).toBe(false);
    // The session is gone server-side too: replaying the old cookie fails.
    browser.cookies.set('mimamori_session', session);
    expect((await browser.get('/api/user_info')).status).toBe(401);
  });

  it('rotates the session on sign-in: the cookie held before signing in stops working', async () => {
    const browser = await signUpAndVerify('rotate@example.com');
    await browser.post('/api/signin', { email: 'rotate@example.com', password: 'abcd1234' });
    const first = browser.cookies.get('mimamori_session') ?? '';
    await browser.post('/api/signin', { email: 'rotate@example.com', password: 'abcd1234' });
    const second = browser.cookies.get('mimamori_session') ?? '';
    expect(second).not.toBe(first);
    const stale = await harness.browser();
    stale.cookies.set('mimamori_session', first);
    expect((await stale.get('/api/user_info')).status).toBe(401);
    expect((await browser.get('/api/user_info')).status).toBe(200);
  });

  it('answers a sign-up with a registered address like a new one and mails its owner instead', async () => {
    await signUpAndVerify('owner@example.com');
    const before = harness.mailsTo('owner@example.com').length;
    const intruder = await harness.browser();
    const again = await intruder.post('/api/signup', {
      email: 'Owner@example.com',
      password: 'other-pass-1',
      agree: true,
      lang: 'en',
    });
    const fresh = await intruder.post('/api/signup', {
      email: 'nobody-yet@example.com',
      password: 'other-pass-1',
      agree: true,
      lang: 'en',
    });
    expect(again.status).toBe(fresh.status);
    expect(again.body).toEqual(fresh.body);
    const notice = await harness.mailTo('owner@example.com', /tried to sign up/);
    expect(notice.text).not.toMatch(/token=/);
    expect(harness.mailsTo('owner@example.com').length).toBe(before + 1);
    // The owner's password is unchanged.
    const owner = await harness.browser();
    expect(
      (await owner.post('/api/signin', { email: 'owner@example.com', password: 'abcd1234' })).status,
    ).toBe(200);
  });

  it('refuses sign-up without agreeing to the terms and with a short password, with their messages', async () => {
    const browser = await harness.browser();
    expect(
      (await browser.post('/api/signup', { email: 'terms@example.com', password: 'abcd1234', agree: false }))
        .body,
    ).toEqual({ error: { code: 'terms_not_agreed', message_key: 'errors.terms_not_agreed' } });
    expect(
      (await browser.post('/api/signup', { email: 'terms@example.com', password: 'abc12', agree: true }))
        .body,
    ).toMatchObject({ error: { code: 'password_too_short' } });
    const { rows } = await harness.db.query(`SELECT 1 FROM account.users WHERE email = 'terms@example.com'`);
    expect(rows).toHaveLength(0);
  });

  it('starts the trial on the plan chosen from the sign-up page’s table, and refuses one it cannot cover', async () => {
    const browser = await harness.browser();
    expect(
      await browser.post('/api/signup', {
        email: 'plan@example.com',
        password: 'abcd1234',
        agree: true,
        plan: 2,
      }),
    ).toMatchObject({ status: 400, body: { error: { code: 'invalid_plan' } } });
    expect(
      await browser.post('/api/signup', {
        email: 'plan@example.com',
        password: 'abcd1234',
        agree: true,
        plan: 12,
      }),
    ).toMatchObject({ status: 400, body: { error: { code: 'invalid_plan' } } });
    await browser.post('/api/signup', {
      email: 'plan@example.com',
      password: 'abcd1234',
      agree: true,
      plan: 8,
    });
    await browser.post('/api/verify', {
      token: tokenIn(await harness.mailTo('plan@example.com', /メールアドレスの確認/)),
    });
    await browser.post('/api/signin', { email: 'plan@example.com', password: 'abcd1234' });
    expect((await browser.get('/api/user_info')).body).toMatchObject({
      num: { _10min: 10, _1min: 15 },
      subscription: { status: 1, s_info: { Plan: 8 } },
    });
  });

  it('answers a wrong password and an unknown address alike', async () => {
    await signUpAndVerify('alike@example.com');
    const browser = await harness.browser();
    const wrong = await browser.post('/api/signin', { email: 'alike@example.com', password: 'wrong-pass' });
    const unknown = await browser.post('/api/signin', { email: 'ghost@example.com', password: 'wrong-pass' });
    expect(wrong).toMatchObject({ status: 401, body: { error: { code: 'credentials_mismatch' } } });
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('throttles twenty wrong passwords in a minute, and lets the right one in once the window has passed', async () => {
    await signUpAndVerify('throttle@example.com', 'right-pass-1');
    const browser = await harness.browser();
    const codes: string[] = [];
    for (let i = 0; i < 20; i++) {
      const response = await browser.post('/api/signin', {
        email: 'throttle@example.com',
        password: `wrong-${i}`,
      });
      codes.push((response.body.error as { code: string }).code);
      harness.clock.advance(2_000);
    }
    expect(codes.slice(0, 10)).toEqual(Array(10).fill('credentials_mismatch'));
    expect(codes.slice(10)).toEqual(Array(10).fill('too_many_attempts'));
    const blocked = await browser.post('/api/signin', {
      email: 'throttle@example.com',
      password: 'right-pass-1',
    });
    expect(blocked).toMatchObject({ status: 429, body: { error: { code: 'too_many_attempts' } } });

    harness.clock.advance(15 * 60_000);
    const allowed = await browser.post('/api/signin', {
      email: 'throttle@example.com',
      password: 'right-pass-1',
    });
    expect(allowed).toMatchObject({ status: 200, body: { status: 'signed_in' } });
  });

  it('counts attempts in flight: thirty parallel guesses get at most ten password checks', async () => {
    await signUpAndVerify('parallel@example.com', 'right-pass-2');
    const browser = await harness.browser();
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        browser.post('/api/signin', { email: 'parallel@example.com', password: `wrong-${i}` }),
      ),
    );
    const codes = responses.map((response) => (response.body.error as { code: string }).code);
    expect(codes.filter((code) => code === 'credentials_mismatch')).toHaveLength(10);
    expect(codes.filter((code) => code === 'too_many_attempts')).toHaveLength(20);
    harness.clock.advance(15 * 60_000);
  });

  it('throttles one address guessing many accounts', async () => {
    const browser = await harness.browser();
    harness.clock.advance(60 * 60_000);
    let last = '';
    for (let i = 0; i < 51; i++) {
      const response = await browser.post('/api/signin', {
        email: `guess-${i}@example.com`,
        password: 'abcd1234',
      });
      last = (response.body.error as { code: string }).code;
    }
    expect(last).toBe('too_many_attempts');
    harness.clock.advance(15 * 60_000);
  });

  it('does not let a client pick its address with X-Forwarded-For (no proxy is trusted by default)', async () => {
    const browser = await harness.browser();
    harness.clock.advance(60 * 60_000);
    let last = '';
    for (let i = 0; i < 51; i++) {
      const response = await browser.post(
        '/api/signin',
        { email: `spoof-${i}@example.com`, password: 'abcd1234' },
        { 'x-forwarded-for': `203.0.113.${i}` },
      );
      last = (response.body.error as { code: string }).code;
    }
    expect(last).toBe('too_many_attempts');
    harness.clock.advance(15 * 60_000);
  });
});
