import type { accountV1 } from '@mimamori/contracts';
import {
  accountAnswers,
  accountRefusals,
  followUpBody,
  followUpQuery,
  supportBody,
  supportFollowUp,
  supportRequestCreated,
} from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountWork } from './auth-routes.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

const { signedOut, csrf, supportLink } = accountRefusals;

/** Support requests and their follow-up form behind the mailed link (/req_support). */
export function supportRoutes(app: FastifyInstance, deps: { account: accountV1.AccountServiceClient }) {
  const { account } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/support',
    {
      schema: {
        summary: 'Send a support request; mails a confirmation with a follow-up link (/req_support, 7 days)',
        security: [{ session: [] }],
        body: supportBody,
        response: { 201: supportRequestCreated, 400: accountRefusals.support, 401: signedOut, 403: csrf },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const { requestId } = await unary(account, 'createSupportRequest', {
          sessionToken: request.cookies[SESSION_COOKIE] ?? '',
          type: request.body?.type ?? '',
          notes: request.body?.notes ?? '',
        });
        return reply.code(201).send({ request_id: requestId });
      }),
  );

  api.get(
    '/api/req_support',
    {
      attachValidation: true,
      schema: {
        summary: 'The support request behind a follow-up link',
        querystring: followUpQuery,
        response: { 200: supportFollowUp, 404: supportLink },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        // A malformed link (a repeated token) is an expired one to its reader.
        const token = request.validationError ? '' : (request.query.token ?? '');
        const followUp = await unary(account, 'getSupportFollowUp', { token });
        return reply.send({ type: followUp.type, notes: followUp.notes });
      }),
  );

  api.post(
    '/api/req_support',
    {
      schema: {
        summary: 'Add details through the follow-up link (once)',
        body: followUpBody,
        response: { 200: accountAnswers.followUpReceived, 403: csrf, 404: supportLink },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        await unary(account, 'submitSupportFollowUp', {
          token: request.body?.token ?? '',
          notes: request.body?.notes ?? '',
        });
        return reply.send({ status: 'follow_up_received' });
      }),
  );
}
