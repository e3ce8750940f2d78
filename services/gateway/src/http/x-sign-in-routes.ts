import { status as grpcStatus } from '@grpc/grpc-js';
import type { accountV1 } from '@mimamori/contracts';
import { redirect, xCallbackQuery } from '@mimamori/http-api';
import { unary, withIncomingHttpContext } from '@mimamori/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SESSION_COOKIE, setSessionCookie } from './session-cookie.ts';
import { setDeviceCookie, setPendingSignIn, signInClient } from './sign-in-cookies.ts';

const START_PATH = '/api/signin/x';
const CALLBACK_PATH = '/api/signin/x/callback';
/** Holds `state.verifier` between the redirect to X and the callback; only this path sees it. */
export const X_OAUTH_COOKIE = 'mimamori_x_oauth';

function callbackUrl(request: FastifyRequest, publicUrl: string | undefined): string {
  return new URL(CALLBACK_PATH, publicUrl ?? `${request.protocol}://${request.host}`).toString();
}

/**
 * Sign-in with X: OAuth 2.0 authorization code with PKCE. The account service builds the
 * authorization URL and exchanges the code; the gateway keeps state and verifier in a short-lived
 * httpOnly cookie and checks the state the provider sends back.
 */
export function xSignInRoutes(
  app: FastifyInstance,
  deps: { account: accountV1.AccountServiceClient; publicUrl?: string | undefined },
) {
  const failed = (reply: FastifyReply) => {
    reply.clearCookie(X_OAUTH_COOKIE, { path: START_PATH });
    return reply.redirect('/signin?error=x_sign_in_failed', 302);
  };

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    START_PATH,
    {
      schema: {
        summary: 'Sign in with X: redirects to the provider (OAuth 2.0 authorization code + PKCE)',
        response: { 302: redirect('To the provider, or to /signin?error=x_sign_in_failed') },
      },
    },
    (request, reply) =>
      withIncomingHttpContext(request.headers, `GET ${START_PATH}`, async () => {
        try {
          const start = await unary(deps.account, 'startXSignIn', {
            redirectUri: callbackUrl(request, deps.publicUrl),
          });
          reply.setCookie(X_OAUTH_COOKIE, `${start.state}.${start.codeVerifier}`, {
            path: START_PATH,
            httpOnly: true,
            secure: true,
            // Lax: the provider's redirect back is a top-level navigation from another site.
            sameSite: 'lax',
            maxAge: 600,
          });
          return reply.redirect(start.authorizeUrl, 302);
        } catch (error) {
          // X sign-in not set up is a normal state, not a fault: the sign-in page probes this route on
          // every load to decide whether to offer the button (web/src/api/x-sign-in.ts).
          const unconfigured = (error as { code?: number }).code === grpcStatus.FAILED_PRECONDITION;
          if (!unconfigured) request.log.warn({ err: error }, 'X sign-in could not start');
          return failed(reply);
        }
      }),
  );

  api.get(
    CALLBACK_PATH,
    {
      attachValidation: true,
      schema: {
        summary: 'The provider sends the browser back here; signs in (creating the account on first use)',
        querystring: xCallbackQuery,
        response: {
          302: redirect(
            'To / signed in, to /signin?second_factor=totp,passkey for the second step, or to /signin?error=x_sign_in_failed',
          ),
        },
      },
    },
    (request, reply) =>
      withIncomingHttpContext(request.headers, `GET ${CALLBACK_PATH}`, async () => {
        const query = request.query;
        const [state, codeVerifier] = (request.cookies[X_OAUTH_COOKIE] ?? '').split('.');
        if (
          request.validationError ||
          !state ||
          !codeVerifier ||
          query.code === undefined ||
          query.state !== state
        )
          return failed(reply);
        try {
          const answer = await unary(deps.account, 'finishXSignIn', {
            code: query.code,
            codeVerifier,
            redirectUri: callbackUrl(request, deps.publicUrl),
            ...signInClient(request, request.cookies[SESSION_COOKIE] ?? ''),
          });
          reply.clearCookie(X_OAUTH_COOKIE, { path: START_PATH });
          if (answer.secondFactorTicket) {
            // The sign-in page asks for the code (or passkey) the account has.
            setPendingSignIn(reply, answer.secondFactorTicket);
            return reply.redirect(`/signin?second_factor=${answer.secondFactorMethods.join(',')}`, 302);
          }
          setSessionCookie(reply, answer.sessionToken);
          setDeviceCookie(reply, answer.deviceToken);
          return reply.redirect('/', 302);
        } catch (error) {
          request.log.warn({ err: error }, 'X sign-in failed');
          return failed(reply);
        }
      }),
  );
}
