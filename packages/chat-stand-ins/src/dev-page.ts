import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * What the LINE and Telegram stand-ins' pages share: HTML escaping, the page's frame, the form
 * posts the person sends from it and the check that a post came from the page itself.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes posts from programs other than the SPA and checks them itself (gateway csrf.ts). */
    otherSiteMayPost?: boolean;
  }
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * A page of a stand-in. It loads nothing but its own pictures and, for LINE, the product's
 * public image links (`imageOrigins`), which the page shows as LINE would fetch them.
 */
export function devPage(options: { title: string; body: string; imageOrigins?: string[] }): {
  html: string;
  csp: string;
} {
  const images = ["'self'", ...(options.imageOrigins ?? [])].join(' ');
  return {
    csp: `default-src 'none'; img-src ${images}; style-src 'unsafe-inline'; form-action 'self'`,
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(options.title)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1"></head>
<body style="margin:0;font-family:sans-serif;background:#f5f6f7;color:#111">
<main style="max-width:760px;margin:0 auto;padding:16px">
<h1 style="font-size:20px">${escapeHtml(options.title)}</h1>
${options.body}
</main></body></html>`,
  };
}

/**
 * The page's forms carry this value and the action routes refuse a post without it: another
 * site open in the same browser cannot press the page's buttons (the stand-ins are served to
 * loopback peers, so a browser on this machine is the only caller).
 */
export function pageNonce(): string {
  return randomBytes(16).toString('base64url');
}

/** Form posts (application/x-www-form-urlencoded) in this scope arrive as their fields. */
export function acceptForms(scope: FastifyInstance): void {
  if (scope.hasContentTypeParser('application/x-www-form-urlencoded')) return;
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
}

/** A field of a parsed form or JSON body, as a string ('' when absent). */
export function field(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

/** The hook's answer, as the page tells the person what the product said. */
export async function postToProduct(
  url: string,
  headers: Record<string, string>,
  rawBody: string,
): Promise<{ status: number } | { error: string }> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: rawBody,
      redirect: 'error',
      signal: AbortSignal.timeout(15_000),
    });
    await response.arrayBuffer().catch(() => undefined);
    return { status: response.status };
  } catch (error) {
    return { error: (error as Error).name };
  }
}
