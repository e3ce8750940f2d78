import { totpCode } from '@mimamori/account';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountHarness, PUBLIC_URL, startAccountHarness } from './account-harness.ts';
import { authorizeAtProvider, startXProviderStandIn } from './x-provider-stand-in.ts';

const REDIRECT_URI = `${PUBLIC_URL}/api/signin/x/callback`;
let harness: AccountHarness;
let provider: Awaited<ReturnType<typeof startXProviderStandIn>>;

beforeAll(async () => {
  provider = await startXProviderStandIn(REDIRECT_URI);
  harness = await startAccountHarness({ xOAuth: provider.config });
});

afterAll(async () => {
  await harness?.close();
  await provider?.close();
});

describe('sign-in with X (OAuth 2.0 + PKCE) against a real local provider', () => {
  it('sends the browser to the provider with a PKCE challenge, and signs in a new user without a password', async () => {
    const browser = await harness.browser();
    const start = await browser.get('/api/signin/x');
    expect(start.status).toBe(302);
    const authorize = new URL(String(start.headers.location));
    expect(authorize.origin).toBe(provider.issuer);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'mimamori',
      redirect_uri: REDIRECT_URI,
      code_challenge_method: 'S256',
    });
    const oauthCookie = browser.setCookies.find((cookie) => cookie.name === 'mimamori_x_oauth');
    expect(oauthCookie).toMatchObject({ httpOnly: true, secure: true });

    const back = await authorizeAtProvider(authorize.toString(), REDIRECT_URI, 'x-123');
    expect(back.searchParams.get('state')).toBe(authorize.searchParams.get('state'));
    const callback = await browser.get(`${back.pathname}${back.search}`);
    expect(callback).toMatchObject({ status: 302, headers: { location: '/' } });
    expect(browser.cookies.has('mimamori_session')).toBe(true);

    const account = await browser.get('/api/account');
    expect(account.body).toMatchObject({
      x_linked: true,
      has_password: false,
      email: '',
      name: 'X user x-123',
      subscription_status: 1,
    });
    expect((await browser.get('/api/user_info')).body).toMatchObject({
      mails: [],
      subscription: { status: 1 },
    });

    // A user without a password sets one without a current password.
    expect(await browser.post('/api/account/password', { new_password: 'first-pass-1' })).toMatchObject({
      status: 200,
    });
    expect((await browser.get('/api/account')).body).toMatchObject({ has_password: true });
  });

  it('signs the same X user into the same account next time', async () => {
    const first = await harness.browser();
    const start1 = new URL(String((await first.get('/api/signin/x')).headers.location));
    const back1 = await authorizeAtProvider(start1.toString(), REDIRECT_URI, 'x-456');
    await first.get(`${back1.pathname}${back1.search}`);
    const second = await harness.browser();
    const start2 = new URL(String((await second.get('/api/signin/x')).headers.location));
    const back2 = await authorizeAtProvider(start2.toString(), REDIRECT_URI, 'x-456');
    await second.get(`${back2.pathname}${back2.search}`);
    const one = (await first.get('/api/account')).body.user_id;
    expect(one).toBeTruthy();
    expect((await second.get('/api/account')).body.user_id).toBe(one);
  });

  it('refuses a callback whose state does not match the browser’s, or without the PKCE cookie', async () => {
    const browser = await harness.browser();
    const start = new URL(String((await browser.get('/api/signin/x')).headers.location));
    const back = await authorizeAtProvider(start.toString(), REDIRECT_URI, 'x-789');

    const forged = await browser.get(`${back.pathname}?code=${back.searchParams.get('code')}&state=forged`);
    expect(forged).toMatchObject({ status: 302, headers: { location: '/signin?error=x_sign_in_failed' } });
    const other = await harness.browser();
    const stolen = await other.get(`${back.pathname}${back.search}`);
    expect(stolen.headers.location).toBe('/signin?error=x_sign_in_failed');
    expect(other.cookies.has('mimamori_session')).toBe(false);
  });

  it('asks an X user with two-factor sign-in for the code after X, as after a password', async () => {
    const viaX = async (browser: Awaited<ReturnType<AccountHarness['browser']>>) => {
      const start = new URL(String((await browser.get('/api/signin/x')).headers.location));
      const back = await authorizeAtProvider(start.toString(), REDIRECT_URI, 'x-2fa');
      return browser.get(`${back.pathname}${back.search}`);
    };
    const first = await harness.browser();
    await viaX(first);
    const secret = String((await first.post('/api/security/totp/start')).body.secret);
    const confirm = await first.post('/api/security/totp/confirm', {
      code: totpCode(secret, harness.clock.now()),
    });
    expect(confirm.status, confirm.text).toBe(200);

    const second = await harness.browser();
    expect(await viaX(second)).toMatchObject({
      status: 302,
      headers: { location: '/signin?second_factor=totp' },
    });
    expect(second.cookies.has('mimamori_session')).toBe(false);
    expect((await second.get('/api/user_info')).status).toBe(401);
    harness.clock.advance(30_000);
    const code = totpCode(secret, harness.clock.now());
    expect((await second.post('/api/signin/code', { code })).body).toEqual({ status: 'signed_in' });
    expect((await second.get('/api/account')).body.user_id).toBe(
      (await first.get('/api/account')).body.user_id,
    );
  });
});
