import type { accountV1 } from '@mimamori/contracts';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance } from 'fastify';
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

  app.get(
    '/api/account',
    accountRoute('GET /api/account', async (request, reply) => {
      const response = await unary(account, 'getAccount', {
        sessionToken: request.cookies[SESSION_COOKIE] ?? '',
      });
      return reply.send(toAccountJson(response.account));
    }),
  );

  app.post(
    '/api/account/update',
    accountRoute('POST /api/account/update', async (request, reply) => {
      const response = await unary(account, 'updateAccount', {
        sessionToken: request.cookies[SESSION_COOKIE] ?? '',
        userId: textField(request, 'user_id'),
        name: optionalTextField(request, 'name'),
        lang: optionalTextField(request, 'lang'),
        timezone: optionalTextField(request, 'timezone'),
        currency: optionalTextField(request, 'currency'),
      });
      return reply.send(toAccountJson(response.account));
    }),
  );

  app.post(
    '/api/account/email',
    accountRoute('POST /api/account/email', async (request, reply) => {
      const response = await unary(account, 'changeEmail', {
        sessionToken: request.cookies[SESSION_COOKIE] ?? '',
        email: textField(request, 'email'),
      });
      return reply.code(202).send(toAccountJson(response.account));
    }),
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

  app.post(
    '/api/account/mails',
    accountRoute('POST /api/account/mails', async (request, reply) => {
      const response = await unary(account, 'addMail', {
        sessionToken: request.cookies[SESSION_COOKIE] ?? '',
        email: textField(request, 'email'),
      });
      return reply.code(201).send(toAccountJson(response.account));
    }),
  );

  app.post(
    '/api/account/mails/delete',
    accountRoute('POST /api/account/mails/delete', async (request, reply) => {
      const response = await unary(account, 'removeMail', {
        sessionToken: request.cookies[SESSION_COOKIE] ?? '',
        mailId: textField(request, 'mail_id'),
      });
      return reply.send(toAccountJson(response.account));
    }),
  );

  app.post(
    '/api/account/discord',
    accountRoute('POST /api/account/discord', async (request, reply) => {
      const response = await unary(account, 'linkDiscord', {
        sessionToken: request.cookies[SESSION_COOKIE] ?? '',
        webhookUrl: textField(request, 'webhook_url'),
      });
      return reply.send(toAccountJson(response.account));
    }),
  );

  app.post(
    '/api/account/discord/delete',
    accountRoute('POST /api/account/discord/delete', async (request, reply) => {
      const response = await unary(account, 'unlinkDiscord', {
        sessionToken: request.cookies[SESSION_COOKIE] ?? '',
      });
      return reply.send(toAccountJson(response.account));
    }),
  );
}
