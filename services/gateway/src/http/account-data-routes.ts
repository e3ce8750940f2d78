import { createHash } from 'node:crypto';
import type { closureV1 } from '@mimamori/contracts';
import { accountDataRefusals, accountDeleteBody, accountDeleted } from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type ExportSources, exportArchive } from './account-export.ts';
import { Allowance } from './allowance.ts';
import { sendApiError } from './api-error.ts';
import { accountWork } from './auth-routes.ts';
import { authorizedByBearer } from './bearer-token.ts';
import { sessionCaller } from './session-caller.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

const { signedOut, sessionOnly, slow } = accountDataRefusals;
const security = [{ session: [] }];

export interface AccountDataRouteDeps extends ExportSources {
  closure?: closureV1.AccountClosureServiceClient | undefined;
}

const zipFile = z.instanceof(Uint8Array).meta({ type: 'string', format: 'binary' });

/**
 * The user's own data (docs/product.md#your-data): all of it as one archive, and deleting the
 * account, confirmed with the password and a typed word. The browser's session only; a few tries a
 * minute per session, so a stolen session cannot guess the password here faster than at sign-in,
 * and a few exports an hour, as each reads every service.
 */
export function accountDataRoutes(app: FastifyInstance, deps: AccountDataRouteDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tries = new Allowance(5, 1 / 60);
  const exports = new Allowance(3, 1 / 600);
  const session = (request: FastifyRequest) => request.cookies[SESSION_COOKIE] ?? '';
  /** Signed in with the browser's session and within the allowance; else answered here. */
  const admitted = (request: FastifyRequest, reply: FastifyReply, allowance: Allowance) => {
    if (!session(request)) return void sendApiError(reply, 401, 'unauthenticated');
    if (authorizedByBearer(request)) return void sendApiError(reply, 403, 'session_required');
    if (!allowance.take(createHash('sha256').update(session(request)).digest('base64url'))) {
      reply.header('retry-after', String(Math.ceil(1 / allowance.perSecond)));
      return void sendApiError(reply, 429, 'rate_limited');
    }
    return true;
  };

  api.post(
    '/api/account/export',
    {
      schema: {
        summary:
          'All the account’s data as one ZIP: sites with every setting, checks, updates with their diffs and pictures, follows, account settings (JSON and pictures). Browser session only.',
        security,
        response: {
          200: { description: 'The archive (ZIP)', content: { 'application/zip': { schema: zipFile } } },
          401: signedOut,
          403: sessionOnly,
          429: slow,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        if (!admitted(request, reply, exports)) return;
        const caller = await sessionCaller(deps.account, request, reply);
        if (!caller) return;
        const now = new Date();
        const archive = await exportArchive(deps, session(request), caller, now);
        const day = now.toISOString().slice(0, 10).replaceAll('-', '');
        return reply
          .header('content-disposition', `attachment; filename="mimamori-export-${day}.zip"`)
          .header('cache-control', 'private, no-store')
          .type('application/zip')
          .send(Buffer.from(archive));
      }),
  );

  const closure = deps.closure;
  if (!closure) return;
  api.post(
    '/api/account/delete',
    {
      schema: {
        summary:
          'Delete the account: closed at once, everything erased after the grace period the answer and a mail state. Browser session only.',
        security,
        body: accountDeleteBody,
        response: {
          200: accountDeleted,
          400: accountDataRefusals.delete,
          401: signedOut,
          403: sessionOnly,
          429: slow,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        if (!admitted(request, reply, tries)) return;
        const answer = await unary(closure, 'deleteAccount', {
          sessionToken: session(request),
          password: request.body?.password ?? '',
          confirmation: request.body?.confirmation ?? '',
        });
        return reply.send({ purge_at: (answer.purgeAt ?? new Date()).toISOString() });
      }),
  );
}
