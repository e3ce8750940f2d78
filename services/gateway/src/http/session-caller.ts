import type { accountV1, targetV1 } from '@mimamori/contracts';
import { historyLimits } from '@mimamori/plans';
import { unary } from '@mimamori/runtime';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendAccountFailure } from './account-failure.ts';
import { answer } from './answer.ts';
import { sendApiError } from './api-error.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

/** Subscription statuses in which monitoring stays stopped (docs/product.md#subscription: 7 on hold; 9 ended). */
const HELD_STATUSES = new Set([7, 9]);

export interface SessionCaller {
  caller: targetV1.Caller;
  /** The user's IANA time zone from user_info, UTC when unset or unknown to this runtime. */
  timeZone: string;
}

/** The session's user as the target and diff services take it, or null after answering 401. */
export async function sessionCaller(
  account: accountV1.AccountServiceClient,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<SessionCaller | null> {
  const sessionToken = request.cookies[SESSION_COOKIE];
  if (!sessionToken) {
    sendApiError(reply, 401, 'unauthenticated');
    return null;
  }
  try {
    const { userInfo } = await unary(account, 'getUserInfo', { sessionToken });
    if (!userInfo?.userId || userInfo.deletedUser) {
      sendApiError(reply, 401, 'unauthenticated');
      return null;
    }
    return callerOf(userInfo);
  } catch (error) {
    sendAccountFailure(reply, error);
    return null;
  }
}

/** The user as the target and diff services take it, from their user_info. */
export function callerOf(userInfo: accountV1.UserInfo): SessionCaller {
  const num = userInfo.num;
  const history = historyLimits(userInfo.subscription?.sInfo?.plan ?? 0);
  return {
    caller: {
      userId: userInfo.userId,
      limits: {
        min60: num?.min60 ?? 0,
        min10: num?.min10 ?? 0,
        min1: num?.min1 ?? 0,
        randomIp: num?.randomIp ?? 0,
        ss: num?.ss ?? 0,
        lineNotify: num?.lineNotify ?? 0,
      },
      held: HELD_STATUSES.has(userInfo.subscription?.status ?? 0),
      // Checks of the sites this caller saves present these to the site.
      lang: userInfo.locale?.lang ?? '',
      timeZone: userInfo.locale?.timezone ?? '',
      // What the plan keeps of each site's history; saving a site takes it along.
      historyUpdates: history.updates,
      historyDays: history.checkDays,
    },
    timeZone: knownTimeZone(userInfo.locale?.timezone ?? ''),
  };
}

/**
 * Runs a route's work for the session's user, inside the request's trace: 401 without one.
 * A malformed request (see request-shape.ts) is the work's to refuse, after this check.
 */
export function answerAsCaller(
  account: accountV1.AccountServiceClient,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (session: SessionCaller) => Promise<unknown>,
  onFailure: (reply: FastifyReply, error: unknown) => unknown,
): Promise<void> {
  const name = `${request.method} ${request.routeOptions.url}`;
  return answer(
    request,
    reply,
    name,
    async () => {
      const session = await sessionCaller(account, request, reply);
      if (session) await work(session);
    },
    onFailure,
  );
}

function knownTimeZone(zone: string): string {
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}
