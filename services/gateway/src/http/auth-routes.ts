import type { accountV1 } from '@mimamori/contracts';
import {
  accountAnswers,
  accountRefusals,
  resetBody,
  resetRequestBody,
  signInAnswer,
  signInBody,
  signUpBody,
  verifyBody,
} from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendAccountFailure } from './account-failure.ts';
import { answer } from './answer.ts';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from './session-cookie.ts';
import { clearPendingSignIn, setDeviceCookie, setPendingSignIn, signInClient } from './sign-in-cookies.ts';

/**
 * Runs an account route's work in the request's trace and answers account refusals with their
 * code. A body field of the wrong type has already been answered 400 bad_request; a missing one
 * reads as empty, and the account service says what it refuses.
 */
export function accountWork(request: FastifyRequest, reply: FastifyReply, work: () => Promise<unknown>) {
  return answer(request, reply, `${request.method} ${request.routeOptions.url}`, work, sendAccountFailure);
}

const { csrf } = accountRefusals;

/** Sign-up, sign-in, sign-out, e-mail verification and password reset (docs/product.md#account). */
export function authRoutes(app: FastifyInstance, deps: { account: accountV1.AccountServiceClient }) {
  const { account } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/api/signup',
    {
      schema: {
        summary:
          'Sign up with a 14-day trial; mails a verification link. Same answer for a registered address.',
        body: signUpBody,
        response: { 202: accountAnswers.verificationSent, 400: accountRefusals.signUp, 403: csrf },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const body = request.body;
        await unary(account, 'signUp', {
          email: body?.email ?? '',
          password: body?.password ?? '',
          lang: body?.lang ?? '',
          agreedToTerms: body?.agree ?? false,
          timezone: body?.timezone ?? '',
          plan: body?.plan ?? 0,
        });
        // The same answer for a new and a registered address.
        return reply.code(202).send({ status: 'verification_sent' });
      }),
  );

  api.post(
    '/api/signin',
    {
      schema: {
        summary:
          'Sign in; sets a new httpOnly session cookie (the previous one ends), or asks for the second factor (POST /api/signin/code or a passkey). Throttled per account and address.',
        body: signInBody,
        response: {
          200: signInAnswer,
          401: accountRefusals.credentials,
          403: csrf,
          409: accountRefusals.notVerified,
          429: accountRefusals.throttled,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(account, 'signIn', {
          email: request.body?.email ?? '',
          password: request.body?.password ?? '',
          ...signInClient(request, request.cookies[SESSION_COOKIE] ?? ''),
        });
        if (answer.secondFactorTicket) {
          setPendingSignIn(reply, answer.secondFactorTicket);
          const methods = answer.secondFactorMethods.filter((m) => m === 'totp' || m === 'passkey');
          return reply.send({ status: 'second_factor_required', methods });
        }
        clearPendingSignIn(reply);
        setSessionCookie(reply, answer.sessionToken);
        setDeviceCookie(reply, answer.deviceToken);
        return reply.send({ status: 'signed_in' });
      }),
  );

  api.get(
    '/api/signout',
    {
      schema: {
        summary: 'Sign out: ends the session and clears its cookie',
        response: { 200: accountAnswers.signedOut },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        await unary(account, 'signOut', { sessionToken: request.cookies[SESSION_COOKIE] ?? '' });
        clearSessionCookie(reply);
        return reply.send({ status: 'signed_out' });
      }),
  );

  api.post(
    '/api/verify',
    {
      schema: {
        summary: 'Consume a verification link (sign-up or additional address)',
        body: verifyBody,
        response: { 200: accountAnswers.verified, 403: csrf, 404: accountRefusals.verificationLink },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const { outcome } = await unary(account, 'verifyEmail', { token: request.body?.token ?? '' });
        return reply.send({ status: outcome });
      }),
  );

  api.post(
    '/api/reset_pass/request',
    {
      schema: {
        summary: 'Request a password reset link; same answer whether or not the address is registered',
        body: resetRequestBody,
        response: { 202: accountAnswers.resetRequested, 403: csrf },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        await unary(account, 'requestPasswordReset', {
          email: request.body?.email ?? '',
          lang: request.body?.lang ?? '',
        });
        return reply.code(202).send({ status: 'reset_requested' });
      }),
  );

  api.post(
    '/api/reset_pass',
    {
      schema: {
        summary: 'Set a new password with a reset link (single use, 1 hour); ends every session',
        body: resetBody,
        response: {
          200: accountAnswers.passwordReset,
          400: accountRefusals.password,
          403: csrf,
          404: accountRefusals.resetLink,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        await unary(account, 'resetPassword', {
          token: request.body?.token ?? '',
          password: request.body?.password ?? '',
        });
        return reply.send({ status: 'password_reset' });
      }),
  );
}
