import type { accountV1 } from '@mimamori/contracts';
import { unary, withIncomingHttpContext } from '@mimamori/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendAccountFailure } from './account-failure.ts';
import { booleanField, integerField, textField } from './request-body.ts';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from './session-cookie.ts';

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** Runs a handler in the request's trace and answers account refusals with their code. */
export function accountRoute(name: string, handler: Handler): Handler {
  return (request, reply) =>
    withIncomingHttpContext(request.headers, name, async () => {
      try {
        return await handler(request, reply);
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 400) throw error;
        return sendAccountFailure(reply, error);
      }
    });
}

/** Sign-up, sign-in, sign-out, e-mail verification and password reset (docs/product.md#account). */
export function authRoutes(app: FastifyInstance, deps: { account: accountV1.AccountServiceClient }) {
  const { account } = deps;

  app.post(
    '/api/signup',
    accountRoute('POST /api/signup', async (request, reply) => {
      await unary(account, 'signUp', {
        email: textField(request, 'email'),
        password: textField(request, 'password'),
        lang: textField(request, 'lang'),
        agreedToTerms: booleanField(request, 'agree'),
        timezone: textField(request, 'timezone'),
        plan: integerField(request, 'plan'),
      });
      // The same answer for a new and a registered address.
      return reply.code(202).send({ status: 'verification_sent' });
    }),
  );

  app.post(
    '/api/signin',
    accountRoute('POST /api/signin', async (request, reply) => {
      const { sessionToken } = await unary(account, 'signIn', {
        email: textField(request, 'email'),
        password: textField(request, 'password'),
        clientAddress: request.ip,
        previousSessionToken: request.cookies[SESSION_COOKIE] ?? '',
      });
      setSessionCookie(reply, sessionToken);
      return reply.send({ status: 'signed_in' });
    }),
  );

  app.get(
    '/api/signout',
    accountRoute('GET /api/signout', async (request, reply) => {
      await unary(account, 'signOut', { sessionToken: request.cookies[SESSION_COOKIE] ?? '' });
      clearSessionCookie(reply);
      return reply.send({ status: 'signed_out' });
    }),
  );

  app.post(
    '/api/verify',
    accountRoute('POST /api/verify', async (request, reply) => {
      const { outcome } = await unary(account, 'verifyEmail', { token: textField(request, 'token') });
      return reply.send({ status: outcome });
    }),
  );

  app.post(
    '/api/reset_pass/request',
    accountRoute('POST /api/reset_pass/request', async (request, reply) => {
      await unary(account, 'requestPasswordReset', {
        email: textField(request, 'email'),
        lang: textField(request, 'lang'),
      });
      return reply.code(202).send({ status: 'reset_requested' });
    }),
  );

  app.post(
    '/api/reset_pass',
    accountRoute('POST /api/reset_pass', async (request, reply) => {
      await unary(account, 'resetPassword', {
        token: textField(request, 'token'),
        password: textField(request, 'password'),
      });
      return reply.send({ status: 'password_reset' });
    }),
  );
}
