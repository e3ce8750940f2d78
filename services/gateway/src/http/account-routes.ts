import type { accountV1 } from '@mimamori/contracts';
import {
  accountAnswers,
  accountRefusals,
  accountSettings,
  accountUpdateBody,
  discordBody,
  editConflict,
  emailBody,
  mailIdBody,
  passwordBody,
} from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toAccountJson } from './account-json.ts';
import { accountWork } from './auth-routes.ts';
import { changedFields, isEditConflict, sendEditConflict } from './edit-conflict.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

const { signedOut, csrf } = accountRefusals;
const security = [{ session: [] }];
const account = accountSettings.describe('The account');

/**
 * The account screen: profile, locale, password, additional addresses and the Discord link.
 * Each call acts on the session's own account only; the account service resolves the user.
 */
export function accountRoutes(app: FastifyInstance, deps: { account: accountV1.AccountServiceClient }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const client = deps.account;

  api.get(
    '/api/account',
    { schema: { summary: 'The account screen', security, response: { 200: account, 401: signedOut } } },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const response = await unary(client, 'getAccount', {
          sessionToken: request.cookies[SESSION_COOKIE] ?? '',
        });
        return reply.send(toAccountJson(response.account));
      }),
  );

  api.post(
    '/api/account/update',
    {
      schema: {
        summary:
          'Save profile fields; only those sent change. user_id, when sent, must be the signed-in user',
        security,
        body: accountUpdateBody,
        response: {
          200: account,
          400: accountRefusals.update,
          401: signedOut,
          403: accountRefusals.forbidden,
          409: editConflict,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const body = request.body;
        const sessionToken = request.cookies[SESSION_COOKIE] ?? '';
        const change = {
          name: body?.name ?? undefined,
          lang: body?.lang ?? undefined,
          timezone: body?.timezone ?? undefined,
          currency: body?.currency ?? undefined,
        };
        try {
          const response = await unary(client, 'updateAccount', {
            sessionToken,
            userId: body?.user_id ?? '',
            ...change,
            expectedRevision: body?.revision ?? undefined,
          });
          return reply.send(toAccountJson(response.account));
        } catch (error) {
          if (!isEditConflict(error)) throw error;
          // Nothing was saved: name the fields this save sent that are saved differently now.
          const now = toAccountJson((await unary(client, 'getAccount', { sessionToken })).account);
          const { name, lang, timezone, currency } = now;
          return sendEditConflict(
            reply,
            now.revision,
            changedFields(change, { name, lang, timezone, currency }),
          );
        }
      }),
  );

  api.post(
    '/api/account/email',
    {
      schema: {
        summary: 'Change the sign-in address: mails a link to the new one, which takes effect when opened',
        security,
        body: emailBody,
        response: {
          202: accountSettings.describe('Link sent; the account is unchanged until it is opened'),
          400: accountRefusals.email,
          401: signedOut,
          403: csrf,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const response = await unary(client, 'changeEmail', {
          sessionToken: request.cookies[SESSION_COOKIE] ?? '',
          email: request.body?.email ?? '',
        });
        return reply.code(202).send(toAccountJson(response.account));
      }),
  );

  api.post(
    '/api/account/password',
    {
      schema: {
        summary:
          'Change the password (an X user without one sets it without current_password); other sessions end',
        security,
        body: passwordBody,
        response: {
          200: accountAnswers.passwordChanged,
          400: accountRefusals.passwordChange,
          401: signedOut,
          403: csrf,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        await unary(client, 'changePassword', {
          sessionToken: request.cookies[SESSION_COOKIE] ?? '',
          currentPassword: request.body?.current_password ?? '',
          newPassword: request.body?.new_password ?? '',
        });
        return reply.send({ status: 'password_changed' });
      }),
  );

  api.post(
    '/api/account/mails',
    {
      schema: {
        summary: 'Add an additional address; mails it a verification link, used once verified',
        security,
        body: emailBody,
        response: {
          201: account,
          400: accountRefusals.mailAdd,
          401: signedOut,
          403: csrf,
          409: accountRefusals.mailConflict,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const response = await unary(client, 'addMail', {
          sessionToken: request.cookies[SESSION_COOKIE] ?? '',
          email: request.body?.email ?? '',
        });
        return reply.code(201).send(toAccountJson(response.account));
      }),
  );

  api.post(
    '/api/account/mails/delete',
    {
      schema: {
        summary: 'Remove one of the account’s additional addresses',
        security,
        body: mailIdBody,
        response: { 200: account, 401: signedOut, 403: csrf, 404: accountRefusals.mailNotFound },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const response = await unary(client, 'removeMail', {
          sessionToken: request.cookies[SESSION_COOKIE] ?? '',
          mailId: request.body?.mail_id ?? '',
        });
        return reply.send(toAccountJson(response.account));
      }),
  );

  api.post(
    '/api/account/discord',
    {
      schema: {
        summary:
          'Link a Discord webhook (https://discord.com/api/webhooks/<id>/<token>); sends a test message',
        security,
        body: discordBody,
        response: {
          200: accountSettings.describe('discord_state complete (test delivered) or not_complete'),
          400: accountRefusals.discord,
          401: signedOut,
          403: csrf,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const response = await unary(client, 'linkDiscord', {
          sessionToken: request.cookies[SESSION_COOKIE] ?? '',
          webhookUrl: request.body?.webhook_url ?? '',
        });
        return reply.send(toAccountJson(response.account));
      }),
  );

  api.post(
    '/api/account/discord/delete',
    {
      schema: { summary: 'Unlink Discord', security, response: { 200: account, 401: signedOut, 403: csrf } },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const response = await unary(client, 'unlinkDiscord', {
          sessionToken: request.cookies[SESSION_COOKIE] ?? '',
        });
        return reply.send(toAccountJson(response.account));
      }),
  );
}
