import type { accountV1 } from '@mimamori/contracts';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance } from 'fastify';
import { accountRoute } from './auth-routes.ts';
import { textField } from './request-body.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

/** Support requests and their follow-up form behind the mailed link (/req_support). */
export function supportRoutes(app: FastifyInstance, deps: { account: accountV1.AccountServiceClient }) {
  const { account } = deps;

  app.post(
    '/api/support',
    accountRoute('POST /api/support', async (request, reply) => {
      const { requestId } = await unary(account, 'createSupportRequest', {
        sessionToken: request.cookies[SESSION_COOKIE] ?? '',
        type: textField(request, 'type'),
        notes: textField(request, 'notes'),
      });
      return reply.code(201).send({ request_id: requestId });
    }),
  );

  app.get<{ Querystring: { token?: string } }>(
    '/api/req_support',
    accountRoute('GET /api/req_support', async (request, reply) => {
      const query = request.query as { token?: unknown };
      const token = typeof query.token === 'string' ? query.token : '';
      const followUp = await unary(account, 'getSupportFollowUp', { token });
      return reply.send({ type: followUp.type, notes: followUp.notes });
    }),
  );

  app.post(
    '/api/req_support',
    accountRoute('POST /api/req_support', async (request, reply) => {
      await unary(account, 'submitSupportFollowUp', {
        token: textField(request, 'token'),
        notes: textField(request, 'notes'),
      });
      return reply.send({ status: 'follow_up_received' });
    }),
  );
}
