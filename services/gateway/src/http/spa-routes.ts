import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendApiError } from './api-error.ts';
import { SESSION_COOKIE, SIGNED_IN_HINT_COOKIE, setSignedInHint } from './session-cookie.ts';

/**
 * Serves the built SPA. Any other GET that asks for a page (not the API) gets index.html,
 * because the SPA routes in history mode (/target2?id=…, /sr2c, …). The page carries the
 * product's minute in real time (`minuteMs`), which the demo shop changes its prices by: 60,000 ms
 * but where tests pass the product's time faster.
 */
export async function spaRoutes(
  app: FastifyInstance,
  webDistDir: string,
  { minuteMs }: { minuteMs: number },
) {
  const built = await readFile(join(webDistDir, 'index.html'), 'utf8').catch(() => {
    throw new Error(
      `the SPA is not built: ${join(webDistDir, 'index.html')} is missing (run pnpm --filter @mimamori/web build)`,
    );
  });
  const indexHtml = built.replace('</head>', `<meta name="mimamori-minute-ms" content="${minuteMs}"></head>`);
  await app.register(fastifyStatic, { root: webDistDir, wildcard: false, index: false });
  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
    // A session begun before the hint existed gets it here, so the SPA still asks who it is.
    if (request.cookies[SESSION_COOKIE] && !request.cookies[SIGNED_IN_HINT_COOKIE]) setSignedInHint(reply);
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  };
  // The SPA's pages, not the API: left out of /api/openapi.json.
  const hide = { schema: { hide: true } };
  app.get('/', hide, (request, reply) => sendIndex(request, reply));
  app.get('/*', hide, (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (path.startsWith('/api/') || path.startsWith('/assets/')) return sendApiError(reply, 404, 'not_found');
    return sendIndex(request, reply);
  });
}
