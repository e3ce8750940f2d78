import type { accountV1 } from '@mimamori/contracts';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { toAccountJson } from './account-json.ts';
import { accountRoute } from './auth-routes.ts';
import { optionalTextField, textField } from './request-body.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

/**
 * The account screen: profile, locale, password, additional addresses and the Discord link.
 * Each call acts on the session's own account only; the account service resolves the user.
 */
export function accountRoutes(app: FastifyInstance, deps: { account: accountV1.AccountServiceClient }) {
  const { account } = deps;

  answerWithAccount(app, 'get', '/api/account', (sessionToken) =>
    unary(account, 'getAccount', { sessionToken }),
  );

  answerWithAccount(app, 'post', '/api/account/update', (sessionToken, request) =>
    unary(account, 'updateAccount', {
      sessionToken,
      userId: textField(request, 'user_id'),
      name: optionalTextField(request, 'name'),
      lang: optionalTextField(request, 'lang'),
      timezone: optionalTextField(request, 'timezone'),
      currency: optionalTextField(request, 'currency'),
    }),
  );

  // 202: the new address takes effect once its owner follows the link sent to it.
  answerWithAccount(
    app,
    'post',
    '/api/account/email',
    (sessionToken, request) =>
      unary(account, 'changeEmail', { sessionToken, email: textField(request, 'email') }),
    202,
  );

  app.post(
    '/api/account/password',
    accountRoute('POST /api/account/password', async (request, reply) => {
      await unary(account, 'changePassword', {
        sessionToken: request.cookies[SESSION_COOKIE] ?? '',
        currentPassword: textField(request, 'current_password'),
        newPassword: textField(request, 'new_password'),
      });
      return reply.send({ status: 'password_changed' });
    }),
  );

  answerWithAccount(
    app,
    'post',
    '/api/account/mails',
    (sessionToken, request) =>
      unary(account, 'addMail', { sessionToken, email: textField(request, 'email') }),
    201,
  );

  answerWithAccount(app, 'post', '/api/account/mails/delete', (sessionToken, request) =>
    unary(account, 'removeMail', { sessionToken, mailId: textField(request, 'mail_id') }),
  );

  answerWithAccount(app, 'post', '/api/account/discord', (sessionToken, request) =>
    unary(account, 'linkDiscord', { sessionToken, webhookUrl: textField(request, 'webhook_url') }),
  );

  answerWithAccount(app, 'post', '/api/account/discord/delete', (sessionToken) =>
    unary(account, 'unlinkDiscord', { sessionToken }),
  );
}

/**
 * A route that makes one call to the account service for the session's own account and answers with
 * the account as that call left it, so every screen section shows the same fields after a change.
 */
function answerWithAccount(
  app: FastifyInstance,
  method: 'get' | 'post',
  url: string,
  call: (
    sessionToken: string,
    request: FastifyRequest,
  ) => Promise<{ account?: accountV1.AccountSettings | undefined }>,
  statusCode = 200,
) {
  app[method](
    url,
    accountRoute(`${method.toUpperCase()} ${url}`, async (request, reply) => {
      const response = await call(request.cookies[SESSION_COOKIE] ?? '', request);
      return reply.code(statusCode).send(toAccountJson(response.account));
    }),
  );
}
