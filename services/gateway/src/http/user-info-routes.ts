import type { accountV1 } from '@mimamori/contracts';
import { unary, withIncomingHttpContext } from '@mimamori/runtime';
import type { FastifyInstance } from 'fastify';
import { sendApiError, sendGrpcFailure } from './api-error.ts';
import { SESSION_COOKIE } from './session-cookie.ts';
import { toUserInfoJson } from './user-info-json.ts';

export function userInfoRoutes(app: FastifyInstance, deps: { account: accountV1.AccountServiceClient }) {
  app.get('/api/user_info', (request, reply) =>
    withIncomingHttpContext(request.headers, 'GET /api/user_info', async () => {
      const sessionToken = request.cookies[SESSION_COOKIE];
      if (!sessionToken) return sendApiError(reply, 401, 'unauthenticated');
      try {
        const response = await unary(deps.account, 'getUserInfo', { sessionToken });
        if (!response.userInfo) return sendApiError(reply, 401, 'unauthenticated');
        return reply.send(toUserInfoJson(response.userInfo));
      } catch (error) {
        return sendGrpcFailure(reply, error);
      }
    }),
  );
}
