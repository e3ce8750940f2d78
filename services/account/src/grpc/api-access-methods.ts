import type { accountV1 } from '@mimamori/contracts';
import { unaryHandler } from '@mimamori/service-host';
import type { AccountDeps } from '../domain/account-deps.ts';
import { AccountProblem } from '../domain/account-problem.ts';
import {
  type ApiTokenRecord,
  authorizeApiToken,
  createApiToken,
  feedToken,
  isApiTokenShaped,
  revokeApiToken,
  rotateFeedToken,
} from '../domain/api-access.ts';
import { requireUser } from '../domain/sessions.ts';
import { answering } from './problem-status.ts';

type ApiAccessMethods = Pick<
  accountV1.AccountServiceServer,
  | 'listApiTokens'
  | 'createApiToken'
  | 'revokeApiToken'
  | 'authorizeApiToken'
  | 'getFeedToken'
  | 'rotateFeedToken'
>;

/**
 * The account's API tokens and feed token (docs/api.md). Managing them takes a browser session:
 * a token that could make or revoke tokens would outlive its own expiry and revocation.
 */
export function apiAccessMethods(deps: Pick<AccountDeps, 'accounts' | 'clock' | 'newId'>): ApiAccessMethods {
  const rpc = <Req, Res>(work: (request: Req) => Promise<Res>) =>
    unaryHandler((request: Req) => answering(() => work(request)));
  const sessionUser = (sessionToken: string) => {
    if (isApiTokenShaped(sessionToken)) throw new AccountProblem('forbidden', 'session_required');
    return requireUser(sessionToken, deps);
  };
  return {
    listApiTokens: rpc(async (request: accountV1.ListApiTokensRequest) => ({
      tokens: (await deps.accounts.listApiTokens(await sessionUser(request.sessionToken))).map(toApiToken),
    })),
    createApiToken: rpc(async (request: accountV1.CreateApiTokenRequest) => {
      const made = await createApiToken(deps, await sessionUser(request.sessionToken), {
        name: request.name,
        scopes: request.scopes,
        expiresInDays: request.expiresInDays,
      });
      return { token: toApiToken(made.token), secret: made.secret };
    }),
    revokeApiToken: rpc(async (request: accountV1.RevokeApiTokenRequest) => {
      await revokeApiToken(deps, await sessionUser(request.sessionToken), request.tokenId);
      return {};
    }),
    authorizeApiToken: rpc(async (request: accountV1.AuthorizeApiTokenRequest) => {
      const token = await authorizeApiToken(deps, request.token, request.scope);
      return { userId: token.userId, tokenId: token.id };
    }),
    getFeedToken: rpc(async (request: accountV1.GetFeedTokenRequest) => ({
      feedToken: await feedToken(deps, await sessionUser(request.sessionToken)),
    })),
    rotateFeedToken: rpc(async (request: accountV1.RotateFeedTokenRequest) => ({
      feedToken: await rotateFeedToken(deps, await sessionUser(request.sessionToken)),
    })),
  };
}

function toApiToken(record: ApiTokenRecord): accountV1.ApiToken {
  return {
    id: record.id,
    name: record.name,
    scopes: record.scopes,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    ...(record.lastUsedAt ? { lastUsedAt: record.lastUsedAt } : {}),
  };
}
