import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export const X_CLIENT = { id: 'mimamori', secret: 'stand-in-secret' };

/**
 * A real OAuth 2.0 / OpenID provider (oidc-provider) on loopback standing in for X: the
 * authorization code flow with PKCE required, client_secret_basic at the token endpoint, and a
 * userinfo endpoint answering {sub, name}. Its built-in login and consent pages play the person.
 */
export async function startXProviderStandIn(redirectUri: string) {
  let handler: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) =>
    response.end();
  const server = createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: X_CLIENT.id,
        client_secret: X_CLIENT.secret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], profile: ['name'] },
    findAccount: async (_context: unknown, id: string) => ({
      accountId: id,
      claims: async () => ({ sub: id, name: `X user ${id}` }),
    }),
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['stand-in-cookie-key'] },
  });
  handler = provider.callback();
  return {
    issuer,
    config: {
      clientId: X_CLIENT.id,
      clientSecret: X_CLIENT.secret,
      authorizeUrl: `${issuer}/auth`,
      tokenUrl: `${issuer}/token`,
      userInfoUrl: `${issuer}/me`,
      scopes: 'openid profile',
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Plays the person at the provider: follows redirects, signs in as `login` on the login page and
 * continues on the consent page, until the provider sends the browser back to `redirectUri`.
 */
export async function authorizeAtProvider(
  authorizeUrl: string,
  redirectUri: string,
  login: string,
): Promise<URL> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (name) jar.set(name.trim(), value.join('='));
    }
  };
  let url = authorizeUrl;
  let form: URLSearchParams | null = null;
  for (let step = 0; step < 20; step++) {
    if (url.startsWith(redirectUri)) return new URL(url);
    const response: Response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: cookieHeader(),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: form.toString() } : {}),
    });
    remember(response);
    form = null;
    const location = response.headers.get('location');
    if (location) {
      url = new URL(location, url).toString();
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1];
    if (!action || !prompt)
      throw new Error(`unexpected provider page (${response.status}): ${page.slice(0, 300)}`);
    url = new URL(action.replaceAll('&amp;', '&'), url).toString();
    form = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
  }
  throw new Error('the provider never redirected back');
}
