import { totpCode } from '@mimamori/account';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEveryApiRouteDescribed } from '../openapi-coverage.ts';
import { type AccountHarness, startAccountHarness, tokenIn } from './account-harness.ts';
import type { TestBrowser } from './test-browser.ts';

let harness: AccountHarness;

beforeAll(async () => {
  harness = await startAccountHarness();
});

afterAll(async () => {
  await harness?.close();
});

const PASSWORD = 'abcd1234';
const MAC_CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function signUpAndVerify(email: string, lang: 'ja' | 'en') {
  const browser = await harness.browser();
  expect((await browser.post('/api/signup', { email, password: PASSWORD, agree: true, lang })).status).toBe(
    202,
  );
  const mail = await harness.mailTo(email, lang === 'ja' ? /メールアドレスの確認/ : /confirm your e-mail/);
  expect((await browser.post('/api/verify', { token: tokenIn(mail) })).status).toBe(200);
}

async function signIn(email: string, userAgent = MAC_CHROME, browser?: TestBrowser) {
  const b = browser ?? (await harness.browser());
  const answer = await b.post('/api/signin', { email, password: PASSWORD }, { 'user-agent': userAgent });
  return { browser: b, answer };
}

/** What the user's phone shows now, as the account service's clock tells the time. */
const phone = (secret: string) => totpCode(secret, harness.clock.now());
const nextStep = () => harness.clock.advance(30_000);

describe('two-factor sign-in with TOTP and recovery codes, through the gateway', () => {
  it('describes every security and second-step route in the OpenAPI document', async () => {
    const document = await expectEveryApiRouteDescribed(harness.gateway.app);
    const paths = Object.keys(document.paths).filter((path) =>
      /^\/api\/(security|signin\/(code|passkey))/.test(path),
    );
    expect(paths.length).toBe(14);
  });

  const email = 'tf-owner@example.jp';
  let owner: TestBrowser;
  let secret = '';
  let recovery: string[] = [];

  it('sets TOTP up with a QR code and a first code; the recovery codes are shown once', async () => {
    await signUpAndVerify(email, 'ja');
    ({ browser: owner } = await signIn(email));
    expect((await owner.get('/api/security')).body).toEqual({
      totp_enabled: false,
      recovery_codes_left: 0,
      passkeys: [],
    });
    const started = await owner.post('/api/security/totp/start');
    expect(started.status).toBe(200);
    expect(started.headers['cache-control']).toBe('no-store');
    secret = String(started.body.secret);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.body.otpauth_uri).toContain(`secret=${secret}`);
    expect(String(started.body.qr_svg)).toMatch(/^<svg/);
    // Not on until a code confirms it: sign-in asks nothing yet.
    expect((await owner.get('/api/security')).body).toMatchObject({ totp_enabled: false });

    expect(await owner.post('/api/security/totp/confirm', { code: '000000' })).toMatchObject({
      status: 400,
      body: { error: { code: 'code_mismatch' } },
    });
    const confirmed = await owner.post('/api/security/totp/confirm', { code: phone(secret) });
    expect(confirmed.status).toBe(200);
    recovery = confirmed.body.recovery_codes as string[];
    expect(recovery).toHaveLength(10);
    expect((await owner.get('/api/security')).body).toEqual({
      totp_enabled: true,
      recovery_codes_left: 10,
      passkeys: [],
    });
    // Once on, starting over is refused (turning it off comes first).
    expect(await owner.post('/api/security/totp/start')).toMatchObject({
      status: 409,
      body: { error: { code: 'totp_already_enabled' } },
    });
    // The secret is sealed at rest.
    const { rows } = await harness.db.query<{ sealed_secret: string }>(
      'SELECT sealed_secret FROM account.totp_factors',
    );
    expect(rows[0]?.sealed_secret).not.toContain(secret);
  });

  it('asks for the code after the password; a code works once; a new device is mailed about', async () => {
    nextStep();
    const { browser: phoneBrowser, answer } = await signIn(email, IPHONE_SAFARI);
    expect(answer).toMatchObject({
      status: 200,
      body: { status: 'second_factor_required', methods: ['totp'] },
    });
    // The password alone is no session.
    expect((await phoneBrowser.get('/api/user_info')).status).toBe(401);
    expect(phoneBrowser.setCookies.find((c) => c.name === 'mimamori_sign_in')).toMatchObject({
      httpOnly: true,
      secure: true,
    });

    const code = phone(secret);
    // A browser sends its User-Agent with every request, the second step's too.
    const safari = { 'user-agent': IPHONE_SAFARI };
    expect((await phoneBrowser.post('/api/signin/code', { code }, safari)).body).toEqual({
      status: 'signed_in',
    });
    expect((await phoneBrowser.get('/api/user_info')).status).toBe(200);

    // The same code again, in the same 30 seconds, from another browser with the password: refused.
    const { browser: replay } = await signIn(email);
    expect(await replay.post('/api/signin/code', { code })).toMatchObject({
      status: 400,
      body: { error: { code: 'code_mismatch' } },
    });
    expect((await replay.get('/api/user_info')).status).toBe(401);

    const mail = await harness.mailTo(email, /新しい端末からログイン/);
    expect(mail.text).toContain('端末: iOSのSafari');
    expect(mail.text).toContain('場所（IPアドレス）: 127.0.0.1');
    expect(mail.text).toMatch(/\/security/);
    // The first sign-in of the account, and this known browser again, mail nobody.
    expect(harness.mailsTo(email).filter((m) => /新しい端末/.test(String(m.subject)))).toHaveLength(1);
  });

  it('takes a recovery code once; the second use is refused', async () => {
    const { browser: first } = await signIn(email);
    const code = recovery[3] ?? '';
    expect((await first.post('/api/signin/code', { recovery_code: code.toUpperCase() })).body).toEqual({
      status: 'signed_in',
    });
    const { browser: second } = await signIn(email);
    expect(await second.post('/api/signin/code', { recovery_code: code })).toMatchObject({
      status: 400,
      body: { error: { code: 'code_mismatch' } },
    });
    expect((await owner.get('/api/security')).body).toMatchObject({ recovery_codes_left: 9 });
  });

  it('ends a waiting sign-in after ten minutes, or after five wrong codes', async () => {
    const { browser: late } = await signIn(email);
    harness.clock.advance(10 * 60_000 + 1);
    expect(await late.post('/api/signin/code', { code: phone(secret) })).toMatchObject({
      status: 401,
      body: { error: { code: 'sign_in_expired' } },
    });

    const { browser: guesser } = await signIn(email);
    for (let i = 0; i < 4; i++) {
      expect((await guesser.post('/api/signin/code', { code: '000000' })).status).toBe(400);
    }
    expect(await guesser.post('/api/signin/code', { code: '000000' })).toMatchObject({
      status: 401,
      body: { error: { code: 'sign_in_expired' } },
    });
    // Even the right code is too late for that ticket.
    expect((await guesser.post('/api/signin/code', { code: phone(secret) })).status).toBe(401);
    // The throttle's window passes before the next test's attempts.
    harness.clock.advance(16 * 60_000);
  });

  it('throttles wrong codes like wrong passwords: ten in fifteen minutes, then even the right code waits', async () => {
    for (let ticket = 0; ticket < 2; ticket++) {
      const { browser: guesser } = await signIn(email);
      for (let i = 0; i < 5; i++) await guesser.post('/api/signin/code', { code: '000000' });
    }
    nextStep();
    const { browser: late } = await signIn(email);
    expect(await late.post('/api/signin/code', { code: phone(secret) })).toMatchObject({
      status: 429,
      body: { error: { code: 'too_many_attempts' } },
    });
    expect((await late.get('/api/user_info')).status).toBe(401);
    harness.clock.advance(16 * 60_000);
    const { browser: rested } = await signIn(email);
    expect((await rested.post('/api/signin/code', { code: phone(secret) })).body).toEqual({
      status: 'signed_in',
    });
  });

  it('lists the sessions, this one marked; ends one, then all the others', async () => {
    nextStep();
    const { browser: other } = await signIn(email, IPHONE_SAFARI);
    await other.post('/api/signin/code', { code: phone(secret) }, { 'user-agent': IPHONE_SAFARI });
    const list = await owner.get('/api/security/sessions');
    expect(list.status).toBe(200);
    const sessions = list.body.sessions as { id: string; current: boolean; browser: string; os: string }[];
    expect(sessions[0]).toMatchObject({
      current: true,
      browser: 'Chrome',
      os: 'macOS',
      client_address: '127.0.0.1',
    });
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const mine = (await other.get('/api/security/sessions')).body.sessions as typeof sessions;
    const otherId = mine.find((s) => s.current)?.id ?? '';
    expect(sessions.some((s) => s.id === otherId && s.browser === 'Safari' && s.os === 'iOS')).toBe(true);

    expect((await owner.post('/api/security/sessions/end', { session_id: otherId })).body).toEqual({
      status: 'session_ended',
    });
    expect((await other.get('/api/user_info')).status).toBe(401);
    expect(await owner.post('/api/security/sessions/end', { session_id: otherId })).toMatchObject({
      status: 404,
      body: { error: { code: 'session_not_found' } },
    });

    const ended = await owner.post('/api/security/sessions/end_others');
    expect(ended.body).toMatchObject({ status: 'sessions_ended' });
    expect(Number(ended.body.ended)).toBeGreaterThan(0);
    const left = (await owner.get('/api/security/sessions')).body.sessions as typeof sessions;
    expect(left).toHaveLength(1);
    expect(left[0]?.current).toBe(true);
  });

  it('another account cannot end this account’s session', async () => {
    await signUpAndVerify('tf-stranger@example.jp', 'en');
    const { browser: stranger } = await signIn('tf-stranger@example.jp');
    const ownerSession = ((await owner.get('/api/security/sessions')).body.sessions as { id: string }[])[0]
      ?.id;
    expect(await stranger.post('/api/security/sessions/end', { session_id: ownerSession })).toMatchObject({
      status: 404,
      body: { error: { code: 'session_not_found' } },
    });
    expect((await owner.get('/api/user_info')).status).toBe(200);
  });

  it('gives new recovery codes for a code; turns TOTP off only with the password and a code', async () => {
    nextStep();
    const regenerated = await owner.post('/api/security/recovery_codes', { code: phone(secret) });
    expect(regenerated.status).toBe(200);
    const fresh = regenerated.body.recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recovery[0]);

    nextStep();
    expect(
      await owner.post('/api/security/totp/disable', { password: 'wrong-password', code: phone(secret) }),
    ).toMatchObject({ status: 400, body: { error: { code: 'password_or_code_mismatch' } } });
    // An old recovery code stopped working with the new set.
    expect(
      await owner.post('/api/security/totp/disable', { password: PASSWORD, recovery_code: recovery[5] }),
    ).toMatchObject({ status: 400 });
    expect(
      (await owner.post('/api/security/totp/disable', { password: PASSWORD, recovery_code: fresh[0] })).body,
    ).toEqual({ status: 'totp_disabled' });
    const { answer } = await signIn(email);
    expect(answer.body).toEqual({ status: 'signed_in' });
  });
});
