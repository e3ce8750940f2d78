import type { Gateway } from '@mimamori/gateway';

type FastifyInstance = Gateway['app'];

export interface TargetResponse {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

/** A browser as the API sees one: its cookie jar and the CSRF header the SPA sends. */
export class TargetBrowser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly app: FastifyInstance) {}

  get(url: string): Promise<TargetResponse> {
    return this.request('GET', url);
  }

  post(url: string, payload: Record<string, unknown> = {}): Promise<TargetResponse> {
    return this.request('POST', url, payload);
  }

  /** A post another site could make with this browser's cookies: the CSRF header is missing. */
  postWithoutCsrf(url: string): Promise<TargetResponse> {
    return this.request('POST', url, {}, false);
  }

  private async request(
    method: 'GET' | 'POST',
    url: string,
    payload?: Record<string, unknown>,
    withCsrf = true,
  ) {
    const csrf = withCsrf ? this.cookies.get('csrf_token') : undefined;
    const response = await this.app.inject({
      method,
      url,
      cookies: Object.fromEntries(this.cookies),
      ...(method === 'POST' ? { payload: payload ?? {}, headers: csrf ? { 'x-csrf-token': csrf } : {} } : {}),
    });
    for (const cookie of response.cookies as { name: string; value: string; maxAge?: number }[]) {
      if (cookie.maxAge === 0 || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    let body: Record<string, unknown> = {};
    try {
      body = response.json();
    } catch {
      body = {};
    }
    return { status: response.statusCode, body, text: response.body };
  }
}
