import { status as grpcStatus } from '@grpc/grpc-js';
import type { accountV1 } from '@mimamori/contracts';
import { signedOut, userInfo } from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { answer } from './answer.ts';
import { sendApiError, sendGrpcFailure } from './api-error.ts';
import { clearSessionCookie, SESSION_COOKIE } from './session-cookie.ts';
import { toUserInfoJson } from './user-info-json.ts';

export function userInfoRoutes(app: FastifyInstance, deps: { account: accountV1.AccountServiceClient }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/user_info',
    {
      schema: {
        summary: 'The signed-in user (user_info)',
        security: [{ session: [] }],
        response: { 200: userInfo.describe('user_info'), 401: signedOut },
      },
    },
    (request, reply) =>
      answer(
        request,
        reply,
        'GET /api/user_info',
        async () => {
          const sessionToken = request.cookies[SESSION_COOKIE];
          if (!sessionToken) return sendApiError(reply, 401, 'unauthenticated');
          const response = await unary(deps.account, 'getUserInfo', { sessionToken });
          if (!response.userInfo) return sendApiError(reply, 401, 'unauthenticated');
          return reply.send(toUserInfoJson(response.userInfo));
        },
        (failingReply, error) => {
          // An expired or signed-out session: drop its cookies, so later page loads neither offer
          // the SPA the signed-in hint again nor ask (and log) this 401 each time.
          if ((error as { code?: number }).code === grpcStatus.UNAUTHENTICATED)
            clearSessionCookie(failingReply);
          return sendGrpcFailure(failingReply, error);
        },
      ),
  );
}
