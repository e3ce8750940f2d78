import type { Gateway } from '@mimamori/gateway';
import { pageText, siteLabel } from './fixtures/pipeline-page-server.ts';

/**
 * A signed-in user of the SPA's API: the pipeline bench reaches the gateway without a socket
 * (InjectedUser), the load bench over HTTP (the test fixtures' HttpVisitor has this shape).
 */
export interface ApiUser {
  get(path: string): Promise<{ status: number; body: unknown }>;
  post(path: string, body?: Record<string, unknown>): Promise<{ status: number; body: unknown }>;
}

/** An ApiUser through the gateway's `inject`, keeping its cookies and sending the CSRF header. */
class InjectedUser implements ApiUser {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly app: Gateway['app']) {}

  get(path: string) {
    return this.call('GET', path);
  }

  post(path: string, payload?: Record<string, unknown>) {
    return this.call('POST', path, payload);
  }

  private async call(method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) {
    const csrf = this.cookies.get('csrf_token');
    const response = await this.app.inject({
      method,
      url,
      cookies: Object.fromEntries(this.cookies),
      ...(method === 'POST' ? { payload: payload ?? {}, headers: csrf ? { 'x-csrf-token': csrf } : {} } : {}),
    });
    for (const cookie of response.cookies as { name: string; value: string }[]) {
      this.cookies.set(cookie.name, cookie.value);
    }
    return { status: response.statusCode, body: response.body };
  }
}

const PASSWORD = 'abcd1234';

/** Signs `user` up as `email` on a trial of `plan`, has `verify` confirm the address, and signs in. */
export async function signUpUser(
  user: ApiUser,
  email: string,
  plan: number,
  verify: (email: string, user: ApiUser) => Promise<void>,
): Promise<void> {
  await user.get('/healthz');
  const signUp = await user.post('/api/signup', { email, password: PASSWORD, agree: true, lang: 'en', plan });
  if (signUp.status !== 202) throw new Error(`sign-up failed: ${JSON.stringify(signUp.body)}`);
  await verify(email, user);
  const signIn = await user.post('/api/signin', { email, password: PASSWORD });
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(signIn.body)}`);
}

/** Registers site `n` (page `<origin>/p/<n>`, its watched area at version 1) as the wizard would; returns its target id. */
export async function registerSite(
  user: ApiUser,
  origin: string,
  n: number,
  settings: { intervalMinutes: number; fetchMode: 'http' | 'browser' },
): Promise<string> {
  const saved = await user.post('/api/v2/target/register', {
    label: siteLabel(n),
    url: `${origin}/p/${n}`,
    interval_minutes: settings.intervalMinutes,
    screenshot: false,
    proxy: false,
    mail_notify: true,
    chat_notify: 'none',
    user_agent: { kind: 'chrome', value: '' },
    actions: [],
    areas: [
      {
        area_id: 'watched',
        label: 'Price',
        content: pageText(n, 1),
        locator: { selector: '#watched', selector_type: 'css' },
        options: {},
      },
    ],
    rules: { combine: 'and', groups: [] },
    fetch_mode: settings.fetchMode,
  });
  if (saved.status !== 201)
    throw new Error(`registering ${siteLabel(n)} failed: ${JSON.stringify(saved.body)}`);
  const body = typeof saved.body === 'string' ? JSON.parse(saved.body) : saved.body;
  return (body as { target_v2_id: string }).target_v2_id;
}

/**
 * Registers `count` HTTP-mode sites on `origin`, `perUser` to a verified user on a trial of the
 * Advanced plan (50 ten-minute slots), as the wizard would.
 */
export async function registerSites(
  gateway: Gateway,
  verify: (email: string) => Promise<void>,
  origin: string,
  count: number,
  perUser: number,
): Promise<void> {
  let user: ApiUser | undefined;
  for (let n = 0; n < count; n++) {
    if (n % perUser === 0) {
      user = new InjectedUser(gateway.app);
      await signUpUser(user, `bench${n}@example.jp`, 11, verify);
    }
    await registerSite(user as ApiUser, origin, n, { intervalMinutes: 10, fetchMode: 'http' });
  }
}
