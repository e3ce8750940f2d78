import type { securityV1 } from '@mimamori/contracts';
import { unaryHandler } from '@mimamori/service-host';
import { AccountProblem } from '../domain/account-problem.ts';
import { isApiTokenShaped } from '../domain/api-access.ts';
import {
  finishPasskeyRegistration,
  finishPasskeySignIn,
  removePasskey,
  startPasskeyRegistration,
  startPasskeySignIn,
} from '../domain/security/passkeys.ts';
import type { SecurityDeps, SignInClient } from '../domain/security/security-deps.ts';
import type { PasskeyRecord } from '../domain/security/security-port.ts';
import {
  endOtherSessions,
  endSession,
  listSessions,
  openSignedInSession,
} from '../domain/security/signed-in.ts';
import {
  confirmTotp,
  disableTotp,
  passSecondFactor,
  regenerateRecoveryCodes,
  securitySummary,
  startTotp,
} from '../domain/security/totp-actions.ts';
import { describeUserAgent } from '../domain/security/user-agent.ts';
import { requirePerson } from '../domain/sessions.ts';
import { answering } from './problem-status.ts';

const clientOf = (client: securityV1.SignInClient | undefined): SignInClient & { previous: string } => ({
  clientAddress: client?.clientAddress ?? '',
  userAgent: client?.userAgent ?? '',
  deviceToken: client?.deviceToken ?? '',
  previous: client?.previousSessionToken ?? '',
});

const passkeyMessage = (passkey: PasskeyRecord): securityV1.Passkey => ({
  id: passkey.id,
  name: passkey.name,
  createdAt: passkey.createdAt,
  lastUsedAt: passkey.lastUsedAt ?? undefined,
});

/**
 * Two-factor sign-in, passkeys and the session list (docs/product.md#two-factor-sign-in). The
 * settings take a browser session: an API token must not turn a second factor off or end sessions.
 */
export function securityServer(deps: SecurityDeps): securityV1.SecurityServiceServer {
  const rpc = <Req, Res>(work: (request: Req) => Promise<Res>) =>
    unaryHandler((request: Req) => answering(() => work(request)));
  const sessionUser = (sessionToken: string) => {
    if (isApiTokenShaped(sessionToken)) throw new AccountProblem('forbidden', 'session_required');
    // The person, not the workspace: second factors and sessions are the person's own sign-in.
    return requirePerson(sessionToken, deps);
  };
  const signedIn = async (userId: string, client: securityV1.SignInClient | undefined) => {
    const from = clientOf(client);
    const session = await openSignedInSession(userId, from.previous, from, deps);
    return { sessionToken: session.token, expiresAt: session.expiresAt, deviceToken: session.deviceToken };
  };

  return {
    getSecurity: rpc(async (request: securityV1.GetSecurityRequest) => {
      const userId = await sessionUser(request.sessionToken);
      const summary = await securitySummary(userId, deps);
      return { ...summary, passkeys: (await deps.security.passkeys(userId)).map(passkeyMessage) };
    }),

    startTotp: rpc(async (request: securityV1.StartTotpRequest) => {
      const enrolment = await startTotp(await sessionUser(request.sessionToken), deps);
      return { secret: enrolment.secret, otpauthUri: enrolment.uri, qrSvg: enrolment.qrSvg };
    }),

    confirmTotp: rpc(async (request: securityV1.ConfirmTotpRequest) => ({
      recoveryCodes: await confirmTotp(
        await sessionUser(request.sessionToken),
        request.code,
        request.clientAddress,
        deps,
      ),
    })),

    disableTotp: rpc(async (request: securityV1.DisableTotpRequest) => {
      await disableTotp(await sessionUser(request.sessionToken), request, deps);
      return {};
    }),

    regenerateRecoveryCodes: rpc(async (request: securityV1.RegenerateRecoveryCodesRequest) => ({
      recoveryCodes: await regenerateRecoveryCodes(await sessionUser(request.sessionToken), request, deps),
    })),

    finishSignIn: rpc(async (request: securityV1.FinishSignInRequest) => {
      const userId = await passSecondFactor(
        request.ticket,
        {
          code: request.code,
          recoveryCode: request.recoveryCode,
          clientAddress: request.client?.clientAddress ?? '',
        },
        deps,
      );
      return signedIn(userId, request.client);
    }),

    startPasskeyRegistration: rpc(async (request: securityV1.StartPasskeyRegistrationRequest) =>
      startPasskeyRegistration(await sessionUser(request.sessionToken), request.relyingParty, deps),
    ),

    finishPasskeyRegistration: rpc(async (request: securityV1.FinishPasskeyRegistrationRequest) => {
      const passkey = await finishPasskeyRegistration(
        await sessionUser(request.sessionToken),
        {
          rp: request.relyingParty,
          challengeToken: request.challengeToken,
          responseJson: request.responseJson,
          name: request.name,
        },
        deps,
      );
      return { passkey: passkeyMessage(passkey) };
    }),

    removePasskey: rpc(async (request: securityV1.RemovePasskeyRequest) => {
      await removePasskey(await sessionUser(request.sessionToken), request.passkeyId, deps);
      return {};
    }),

    startPasskeySignIn: rpc(async (request: securityV1.StartPasskeySignInRequest) =>
      startPasskeySignIn({ rp: request.relyingParty, ticket: request.ticket }, deps),
    ),

    finishPasskeySignIn: rpc(async (request: securityV1.FinishPasskeySignInRequest) => {
      const userId = await finishPasskeySignIn(
        {
          rp: request.relyingParty,
          challengeToken: request.challengeToken,
          responseJson: request.responseJson,
          ticket: request.ticket,
        },
        deps,
      );
      return signedIn(userId, request.client);
    }),

    listSessions: rpc(async (request: securityV1.ListSessionsRequest) => {
      const userId = await sessionUser(request.sessionToken);
      const sessions = await listSessions(userId, request.sessionToken, deps);
      return {
        sessions: sessions.map((session) => ({
          ...session,
          ...describeUserAgent(session.userAgent),
        })),
      };
    }),

    endSession: rpc(async (request: securityV1.EndSessionRequest) => {
      await endSession(await sessionUser(request.sessionToken), request.sessionId, deps);
      return {};
    }),

    endOtherSessions: rpc(async (request: securityV1.EndOtherSessionsRequest) => ({
      ended: await endOtherSessions(await sessionUser(request.sessionToken), request.sessionToken, deps),
    })),
  };
}
