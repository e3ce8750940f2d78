import type { Gateway } from '@mimamori/gateway';
import { pageText, siteLabel } from './fixtures/pipeline-page-server.ts';

/** A signed-in user of the SPA's API, through the gateway without a socket. */
class ApiUser {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly app: Gateway['app']) {}

  async call(method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) {
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
    return response;
  }
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
      user = new ApiUser(gateway.app);
      await user.call('GET', '/healthz');
      const email = `bench${n}@example.jp`;
      const password = 'abcd1234';
      const signUp = await user.call('POST', '/api/signup', {
        email,
        password,
        agree: true,
        lang: 'en',
        plan: 11,
      });
      if (signUp.statusCode !== 202) throw new Error(`sign-up failed: ${signUp.body}`);
      await verify(email);
      const signIn = await user.call('POST', '/api/signin', { email, password });
      if (signIn.statusCode !== 200) throw new Error(`sign-in failed: ${signIn.body}`);
    }
    const saved = await (user as ApiUser).call('POST', '/api/v2/target/register', {
      label: siteLabel(n),
      url: `${origin}/p/${n}`,
      interval_minutes: 10,
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
      fetch_mode: 'http',
    });
    if (saved.statusCode !== 201) throw new Error(`registering ${siteLabel(n)} failed: ${saved.body}`);
  }
}
