import type { FastifyInstance } from 'fastify';

export interface BrowserResponse {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, unknown>;
  text: string;
}

/**
 * A browser as far as the API sees one: a cookie jar (session and CSRF cookies as the gateway
 * set them) and the CSRF header the SPA sends on every state-changing call.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  readonly setCookies: { name: string; httpOnly?: boolean; secure?: boolean; sameSite?: string }[] = [];

  constructor(private readonly app: FastifyInstance) {}

  get(url: string): Promise<BrowserResponse> {
    return this.request('GET', url);
  }

  post(
    url: string,
    payload: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ): Promise<BrowserResponse> {
    return this.request('POST', url, payload, headers);
  }

  async request(
    method: 'GET' | 'POST',
    url: string,
    payload?: Record<string, unknown>,
    headers: Record<string, string> = {},
  ): Promise<BrowserResponse> {
    const csrf = this.cookies.get('csrf_token');
    const response = await this.app.inject({
      method,
      url,
      cookies: Object.fromEntries(this.cookies),
      ...(method === 'POST'
        ? { payload: payload ?? {}, headers: { ...headers, ...(csrf ? { 'x-csrf-token': csrf } : {}) } }
        : { headers }),
    });
    for (const cookie of response.cookies as {
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
      httpOnly?: boolean;
      secure?: boolean;
      sameSite?: string;
    }[]) {
      this.setCookies.push(cookie);
      const expired =
        cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() < Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    let body: Record<string, unknown> = {};
    try {
      body = response.json();
    } catch {
      body = {};
    }
    return { status: response.statusCode, body, headers: response.headers, text: response.body };
  }
}
