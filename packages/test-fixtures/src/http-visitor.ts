/**
 * A visitor of the running product over real HTTP: keeps the cookies the gateway sets and
 * sends the CSRF header the SPA sends on every state-changing call.
 */
export interface HttpVisitor {
  readonly cookies: Map<string, string>;
  get(path: string): Promise<VisitorResponse>;
  post(path: string, body?: Record<string, unknown>): Promise<VisitorResponse>;
}

export interface VisitorResponse {
  status: number;
  body: unknown;
}

export function createHttpVisitor(baseUrl: string): HttpVisitor {
  const cookies = new Map<string, string>();
  const request = async (method: 'GET' | 'POST', path: string, body?: Record<string, unknown>) => {
    const csrf = cookies.get('csrf_token');
    const response = await fetch(new URL(path, baseUrl), {
      method,
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(method === 'POST'
          ? { 'content-type': 'application/json', ...(csrf ? { 'x-csrf-token': csrf } : {}) }
          : {}),
      },
      ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired || value === '') cookies.delete(name);
      else cookies.set(name, value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (the SPA's HTML): the text stands.
    }
    return { status: response.status, body: parsed };
  };
  return {
    cookies,
    get: (path) => request('GET', path),
    post: (path, body) => request('POST', path, body),
  };
}
