import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import type { accountV1 } from '@mimamori/contracts';
import { GrpcError, type Logger } from '@mimamori/runtime';
import { unaryHandler } from '@mimamori/service-host';
import { hash } from '@node-rs/argon2';
import { type AccountWriter, createAccount } from '../domain/create-account.ts';
import { hashSessionToken } from '../domain/session-token.ts';
import type { SessionReader } from '../domain/user-info.ts';
import { toUserInfo } from './user-info-message.ts';

export function accountServer({
  store,
  logger,
}: {
  store: AccountWriter & SessionReader;
  logger: Logger;
}): accountV1.AccountServiceServer {
  return {
    getUserInfo: unaryHandler(async (request: accountV1.GetUserInfoRequest) => {
      const account = request.sessionToken
        ? await store.findAccountBySessionTokenHash(hashSessionToken(request.sessionToken), new Date())
        : null;
      if (!account) throw new GrpcError(status.UNAUTHENTICATED, 'unauthenticated');
      return { userInfo: toUserInfo(account) };
    }),

    createAccount: unaryHandler(async (request: accountV1.CreateAccountRequest) => {
      const result = await createAccount(request, {
        accounts: store,
        // @node-rs/argon2 hashes with argon2id unless told otherwise.
        hashPassword: (password) => hash(password),
        newId: randomUUID,
        now: () => new Date(),
      });
      if (!result.ok) {
        const code = result.problem === 'email_taken' ? status.ALREADY_EXISTS : status.INVALID_ARGUMENT;
        throw new GrpcError(code, result.problem);
      }
      logger.info({ userId: result.userId }, 'account created');
      return { userId: result.userId };
    }),
  };
}
