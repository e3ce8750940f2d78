import type { securityV1 } from '@mimamori/contracts';
import {
  codeBody,
  type PasskeyJson,
  passkeyJson,
  passkeyOptions,
  passkeyRegistrationBody,
  passkeyRemoveBody,
  passkeySignInBody,
  recoveryCodes,
  type SessionJson,
  securityAnswers,
  securityRefusals,
  securitySettings,
  sessionEndBody,
  sessionList,
  signInCodeBody,
  totpDisableBody,
  totpEnrolment,
} from '@mimamori/http-api';
import { unary } from '@mimamori/runtime';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountWork } from './auth-routes.ts';
import { SESSION_COOKIE, setSessionCookie } from './session-cookie.ts';
import {
  clearPendingSignIn,
  PENDING_SIGN_IN_COOKIE,
  setDeviceCookie,
  signInClient,
} from './sign-in-cookies.ts';

const r = securityRefusals;
const security = [{ session: [] }];

const iso = (date: Date | undefined) => (date ? date.toISOString() : null);
const passkeyOf = (passkey: securityV1.Passkey | undefined): PasskeyJson => ({
  id: passkey?.id ?? '',
  name: passkey?.name ?? '',
  created_at: iso(passkey?.createdAt) ?? '',
  last_used_at: iso(passkey?.lastUsedAt),
});
const sessionOf = (session: securityV1.Session): SessionJson => ({
  id: session.id,
  browser: session.browser,
  os: session.os,
  client_address: session.clientAddress,
  created_at: iso(session.createdAt) ?? '',
  last_seen_at: iso(session.lastSeenAt) ?? '',
  current: session.current,
});
/** JSON the SPA's WebAuthn library made; the account service checks it, here it only travels. */
const jsonOf = (value: unknown) => (value && typeof value === 'object' ? JSON.stringify(value) : '');
const parsed = (json: string) => JSON.parse(json) as Record<string, unknown>;

/**
 * Two-factor sign-in, passkeys and the session list (docs/product.md#two-factor-sign-in). The
 * relying party of passkeys is the product's public origin (PUBLIC_URL), else the address the
 * browser used; the account service checks every ceremony against it.
 */
export function securityRoutes(
  app: FastifyInstance,
  deps: { security: securityV1.SecurityServiceClient; publicUrl?: string | undefined },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const client = deps.security;
  const session = (request: FastifyRequest) => request.cookies[SESSION_COOKIE] ?? '';
  const relyingParty = (request: FastifyRequest) => {
    const origin = new URL(deps.publicUrl ?? `${request.protocol}://${request.host}`);
    return { id: origin.hostname, origin: origin.origin };
  };

  api.get(
    '/api/security',
    {
      schema: {
        summary: 'Two-factor sign-in as set: TOTP on or off, recovery codes left, passkeys',
        security,
        response: { 200: securitySettings, 401: r.signedOut, 403: r.sessionRequired },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(client, 'getSecurity', { sessionToken: session(request) });
        return reply.send({
          totp_enabled: answer.totpEnabled,
          recovery_codes_left: answer.recoveryCodesLeft,
          passkeys: answer.passkeys.map(passkeyOf),
        });
      }),
  );

  api.post(
    '/api/security/totp/start',
    {
      schema: {
        summary: 'Begin setting up TOTP: a new secret and its QR code (any unconfirmed one is replaced)',
        security,
        response: { 200: totpEnrolment, 401: r.signedOut, 403: r.forbidden, 409: r.totpState },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(client, 'startTotp', { sessionToken: session(request) });
        return reply
          .header('cache-control', 'no-store')
          .send({ secret: answer.secret, otpauth_uri: answer.otpauthUri, qr_svg: answer.qrSvg });
      }),
  );

  api.post(
    '/api/security/totp/confirm',
    {
      schema: {
        summary: 'Turn TOTP on with a first code; answers the recovery codes this once',
        security,
        body: codeBody,
        response: {
          200: recoveryCodes,
          400: r.code,
          401: r.signedOut,
          403: r.forbidden,
          409: r.totpState,
          429: r.throttled,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(client, 'confirmTotp', {
          sessionToken: session(request),
          code: request.body?.code ?? '',
          clientAddress: request.ip,
        });
        return reply.header('cache-control', 'no-store').send({ recovery_codes: answer.recoveryCodes });
      }),
  );

  api.post(
    '/api/security/totp/disable',
    {
      schema: {
        summary: 'Turn TOTP off with the password and a code (or a recovery code)',
        security,
        body: totpDisableBody,
        response: {
          200: securityAnswers.totpDisabled,
          400: r.code,
          401: r.signedOut,
          403: r.forbidden,
          409: r.totpState,
          429: r.throttled,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        await unary(client, 'disableTotp', {
          sessionToken: session(request),
          password: request.body?.password ?? '',
          code: request.body?.code ?? '',
          recoveryCode: request.body?.recovery_code ?? '',
          clientAddress: request.ip,
        });
        return reply.send({ status: 'totp_disabled' });
      }),
  );

  api.post(
    '/api/security/recovery_codes',
    {
      schema: {
        summary: 'New recovery codes for a current code; the old ones stop working',
        security,
        body: codeBody,
        response: {
          200: recoveryCodes,
          400: r.code,
          401: r.signedOut,
          403: r.forbidden,
          409: r.totpState,
          429: r.throttled,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(client, 'regenerateRecoveryCodes', {
          sessionToken: session(request),
          code: request.body?.code ?? '',
          clientAddress: request.ip,
        });
        return reply.header('cache-control', 'no-store').send({ recovery_codes: answer.recoveryCodes });
      }),
  );

  api.post(
    '/api/signin/code',
    {
      schema: {
        summary:
          'The second step of a sign-in: a TOTP code or a recovery code (each recovery code works once); sets the session cookie',
        body: signInCodeBody,
        response: {
          200: securityAnswers.signedIn,
          400: r.code,
          401: r.signInExpired,
          403: r.csrf,
          429: r.throttled,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(client, 'finishSignIn', {
          ticket: request.cookies[PENDING_SIGN_IN_COOKIE] ?? '',
          code: request.body?.code ?? '',
          recoveryCode: request.body?.recovery_code ?? '',
          client: signInClient(request, session(request)),
        });
        clearPendingSignIn(reply);
        setSessionCookie(reply, answer.sessionToken);
        setDeviceCookie(reply, answer.deviceToken);
        return reply.send({ status: 'signed_in' });
      }),
  );

  api.post(
    '/api/signin/passkey/options',
    {
      schema: {
        summary:
          'Begin a passkey sign-in: after a password, the account’s passkeys; without one, any passkey of this site (passwordless)',
        response: { 200: passkeyOptions, 401: r.signInExpired, 403: r.csrf, 409: r.passkeyExists },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(client, 'startPasskeySignIn', {
          relyingParty: relyingParty(request),
          ticket: request.cookies[PENDING_SIGN_IN_COOKIE] ?? '',
        });
        return reply.send({ options: parsed(answer.optionsJson), challenge_token: answer.challengeToken });
      }),
  );

  api.post(
    '/api/signin/passkey',
    {
      schema: {
        summary: 'Finish a passkey sign-in with the browser’s answer; sets the session cookie',
        body: passkeySignInBody,
        response: {
          200: securityAnswers.signedIn,
          400: r.passkey,
          401: r.signInExpired,
          403: r.csrf,
          409: r.passkeyExists,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(client, 'finishPasskeySignIn', {
          relyingParty: relyingParty(request),
          challengeToken: request.body?.challenge_token ?? '',
          responseJson: jsonOf(request.body?.response),
          ticket: request.cookies[PENDING_SIGN_IN_COOKIE] ?? '',
          client: signInClient(request, session(request)),
        });
        clearPendingSignIn(reply);
        setSessionCookie(reply, answer.sessionToken);
        setDeviceCookie(reply, answer.deviceToken);
        return reply.send({ status: 'signed_in' });
      }),
  );

  api.post(
    '/api/security/passkeys/options',
    {
      schema: {
        summary: 'Begin registering a passkey: options for the browser',
        security,
        response: {
          200: passkeyOptions,
          400: r.passkey,
          401: r.signedOut,
          403: r.forbidden,
          409: r.passkeyExists,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(client, 'startPasskeyRegistration', {
          sessionToken: session(request),
          relyingParty: relyingParty(request),
        });
        return reply.send({ options: parsed(answer.optionsJson), challenge_token: answer.challengeToken });
      }),
  );

  api.post(
    '/api/security/passkeys',
    {
      schema: {
        summary: 'Finish registering a passkey with the browser’s answer',
        security,
        body: passkeyRegistrationBody,
        response: {
          200: passkeyJson,
          400: r.passkey,
          401: r.signedOut,
          403: r.forbidden,
          409: r.passkeyExists,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(client, 'finishPasskeyRegistration', {
          sessionToken: session(request),
          relyingParty: relyingParty(request),
          responseJson: jsonOf(request.body?.response),
          name: request.body?.name ?? '',
          challengeToken: request.body?.challenge_token ?? '',
        });
        return reply.send(passkeyOf(answer.passkey));
      }),
  );

  api.post(
    '/api/security/passkeys/delete',
    {
      schema: {
        summary: 'Remove one of the account’s passkeys',
        security,
        body: passkeyRemoveBody,
        response: {
          200: securityAnswers.passkeyRemoved,
          401: r.signedOut,
          403: r.forbidden,
          404: r.passkeyNotFound,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        await unary(client, 'removePasskey', {
          sessionToken: session(request),
          passkeyId: request.body?.passkey_id ?? '',
        });
        return reply.send({ status: 'passkey_removed' });
      }),
  );

  api.get(
    '/api/security/sessions',
    {
      schema: {
        summary: 'The account’s sessions, this one first',
        security,
        response: { 200: sessionList, 401: r.signedOut, 403: r.sessionRequired },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(client, 'listSessions', { sessionToken: session(request) });
        return reply.send({ sessions: answer.sessions.map(sessionOf) });
      }),
  );

  api.post(
    '/api/security/sessions/end',
    {
      schema: {
        summary: 'End one of the account’s sessions (its browser is signed out)',
        security,
        body: sessionEndBody,
        response: {
          200: securityAnswers.sessionEnded,
          401: r.signedOut,
          403: r.forbidden,
          404: r.sessionNotFound,
        },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        await unary(client, 'endSession', {
          sessionToken: session(request),
          sessionId: request.body?.session_id ?? '',
        });
        return reply.send({ status: 'session_ended' });
      }),
  );

  api.post(
    '/api/security/sessions/end_others',
    {
      schema: {
        summary: 'End every session of the account but this one',
        security,
        response: { 200: securityAnswers.othersEnded, 401: r.signedOut, 403: r.forbidden },
      },
    },
    (request, reply) =>
      accountWork(request, reply, async () => {
        const answer = await unary(client, 'endOtherSessions', { sessionToken: session(request) });
        return reply.send({ status: 'sessions_ended', ended: answer.ended });
      }),
  );
}
