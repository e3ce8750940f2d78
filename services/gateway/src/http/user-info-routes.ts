import { status as grpcStatus } from '@grpc/grpc-js';
import type { accountV1, filingsV1 } from '@mimamori/contracts';
import {
  signedOut,
  type UserInfo,
  userInfo,
  WORKSPACE_ROLES,
  type WorkspaceRoleName,
} from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { answer } from './answer.ts';
import { sendApiError, sendGrpcFailure } from './api-error.ts';
import { clearSessionCookie, SESSION_COOKIE } from './session-cookie.ts';
import { followsJson, toUserInfoJson } from './user-info-json.ts';

export function userInfoRoutes(
  app: FastifyInstance,
  deps: { account: accountV1.AccountServiceClient; filings?: filingsV1.FilingsServiceClient | undefined },
) {
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
          const account = toUserInfoJson(response.userInfo);
          // The person's role here, so the screens offer only what it allows (ADR 0033).
          const info: UserInfo = account.deleted_user
            ? account
            : { ...account, role: roleName((await unary(deps.account, 'getCaller', { sessionToken })).role) };
          if (!deps.filings || !info.user_id || info.deleted_user) return reply.send(info);
          return reply.send(withFollows(info, await followsOf(deps.filings, info.user_id, request)));
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

/**
 * The user's follows, from the filings service. When it cannot answer, user_info still loads
 * (the dashboard's sites matter more) with the lists empty, and the failure is logged.
 */
async function followsOf(
  filings: filingsV1.FilingsServiceClient,
  userId: string,
  request: FastifyRequest,
): Promise<filingsV1.ListFollowsResponse | undefined> {
  try {
    return await unary(filings, 'listFollows', { userId }, { deadlineMs: 5_000 });
  } catch (error) {
    request.log.error({ err: error }, 'follows not loaded for user_info');
    return undefined;
  }
}

function withFollows(info: UserInfo, follows: filingsV1.ListFollowsResponse | undefined): UserInfo {
  return follows ? { ...info, ...followsJson(follows) } : info;
}

function roleName(role: string): WorkspaceRoleName {
  return WORKSPACE_ROLES.find((known) => known === role) ?? 'viewer';
}
