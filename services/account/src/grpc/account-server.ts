import { setTimeout as sleep } from 'node:timers/promises';
import { accountV1, type targetsEventsV1 } from '@mimamori/contracts';
import type { PlanPrices } from '@mimamori/plans';
import { NO_QUIET_HOURS, type QuietHours } from '@mimamori/quiet-hours';
import type { Logger } from '@mimamori/runtime';
import { unaryHandler } from '@mimamori/service-host';
import { AccountProblem } from '../domain/account-problem.ts';
import {
  addMail,
  changeEmail,
  loadOwnAccount,
  removeMail,
  updateProfile,
} from '../domain/account-settings.ts';
import { feedOwner, isApiTokenShaped } from '../domain/api-access.ts';
import type { ChatLinkStore } from '../domain/chat-links.ts';
import { createAccount } from '../domain/create-account.ts';
import { type DiscordLinkDeps, linkDiscord, unlinkDiscord } from '../domain/discord-link.ts';
import { changePassword, requestPasswordReset, resetPassword } from '../domain/passwords.ts';
import { saveQuietHours } from '../domain/quiet-hours-settings.ts';
import type { FirstFactorOutcome } from '../domain/security/after-password.ts';
import type { SecurityDeps } from '../domain/security/security-deps.ts';
import { hashSessionToken } from '../domain/session-token.ts';
import { findSessionUser, requireCaller, requirePerson, requireUser } from '../domain/sessions.ts';
import { signIn } from '../domain/sign-in.ts';
import { signUp } from '../domain/sign-up.ts';
import {
  createSupportRequest,
  getSupportFollowUp,
  submitSupportFollowUp,
} from '../domain/support-request.ts';
import { toUserInfoView } from '../domain/user-info.ts';
import { verifyEmail } from '../domain/verify-email.ts';
import type { WebhookStore } from '../domain/webhooks.ts';
import { secondFactorMissing, type WorkspacePort } from '../domain/workspaces.ts';
import { finishXSignIn, startXSignIn, type XOAuthConfig } from '../domain/x-sign-in.ts';
import { toAccountSettings } from './account-settings-message.ts';
import { apiAccessMethods } from './api-access-methods.ts';
import { answering } from './problem-status.ts';
import { deletedUserInfo, toUserInfo } from './user-info-message.ts';
import type { WorkAfterAnswer } from './work-after-answer.ts';

/**
 * How soon a sign-up answers at the earliest: above the argon2 hash plus either path's writes on a
 * loaded machine (bench/account-timing measures ~150–220 ms).
 */
const SIGN_UP_ANSWER_MS = 300;

export interface AccountServerDeps extends SecurityDeps {
  logger: Logger;
  prices: PlanPrices;
  discord: Omit<DiscordLinkDeps, 'accounts'>;
  xOAuth: XOAuthConfig | null;
  afterAnswer: WorkAfterAnswer;
  /** The signed webhooks the notification profile lists. */
  webhooks: Pick<WebhookStore, 'list'>;
  /** The chat links the notification profile lists (linked ones only). */
  chatLinks: Pick<ChatLinkStore, 'list'>;
  /** Whether the caller's workspace requires a second factor they lack (GetCaller). */
  workspaces: WorkspacePort;
}

/** Every method resolves the caller from the session token first; no method takes a user id on trust. */
export function accountServer(deps: AccountServerDeps): accountV1.AccountServiceServer {
  const settingsOf = async (userId: string) => ({
    account: toAccountSettings(await loadOwnAccount(userId, deps)),
  });
  const rpc = <Req, Res>(work: (request: Req) => Promise<Res>) =>
    unaryHandler((request: Req) => answering(() => work(request)));

  return {
    getUserInfo: rpc(async (request: accountV1.GetUserInfoRequest) => {
      const session = await findSessionUser(request.sessionToken, deps);
      if (!session?.role) throw new AccountProblem('unauthenticated', 'unauthenticated');
      const account = session.deleted ? null : await deps.accounts.loadAccount(session.userId);
      if (!account || account.deleted) return { userInfo: deletedUserInfo(session.userId) };
      return { userInfo: toUserInfo(toUserInfoView(account, deps.prices)) };
    }),

    getCaller: rpc(async (request: accountV1.GetCallerRequest) => {
      const caller = await requireCaller(request.sessionToken, deps);
      return {
        workspaceId: caller.userId,
        personId: caller.personId,
        role: caller.role,
        secondFactorMissing:
          !isApiTokenShaped(request.sessionToken) && (await secondFactorMissing(caller, deps)),
      };
    }),

    ...apiAccessMethods(deps),

    getFeedOwner: rpc(async (request: accountV1.GetFeedOwnerRequest) => {
      const account = await deps.accounts.loadAccount(await feedOwner(deps, request.feedToken));
      if (!account || account.deleted) throw new AccountProblem('not_found', 'feed_not_found');
      return { userInfo: toUserInfo(toUserInfoView(account, deps.prices)) };
    }),

    createAccount: rpc(async (request: accountV1.CreateAccountRequest) => {
      const userId = await createAccount(request, deps);
      deps.logger.info({ userId }, 'account created');
      return { userId };
    }),

    signUp: rpc(async (request: accountV1.SignUpRequest) => {
      const started = performance.now();
      await signUp(
        {
          email: request.email,
          password: request.password,
          lang: request.lang,
          agreedToTerms: request.agreedToTerms,
          timezone: request.timezone,
          plan: request.plan,
        },
        deps,
      );
      // A new address and a registered one take different writes (the account, or a mail to its
      // owner); answering no sooner than the slower of them usually takes keeps that from showing.
      await sleep(Math.max(0, SIGN_UP_ANSWER_MS - (performance.now() - started)));
      return {};
    }),

    signIn: rpc(async (request: accountV1.SignInRequest) => {
      return firstFactorAnswer(await signIn(request, deps));
    }),

    signOut: rpc(async (request: accountV1.SignOutRequest) => {
      if (request.sessionToken) await deps.accounts.deleteSession(hashSessionToken(request.sessionToken));
      return {};
    }),

    verifyEmail: rpc(async (request: accountV1.VerifyEmailRequest) => ({
      outcome: await verifyEmail(request.token, deps),
    })),

    requestPasswordReset: rpc(async (request: accountV1.RequestPasswordResetRequest) => {
      // Whether a link is mailed depends on the address having an account: done after answering.
      deps.afterAnswer.run('password reset request', () => requestPasswordReset(request.email, deps));
      return {};
    }),

    resetPassword: rpc(async (request: accountV1.ResetPasswordRequest) => {
      await resetPassword(request.token, request.password, deps);
      return {};
    }),

    changePassword: rpc(async (request: accountV1.ChangePasswordRequest) => {
      const userId = await requirePerson(request.sessionToken, deps);
      await changePassword(
        {
          userId,
          sessionToken: request.sessionToken,
          currentPassword: request.currentPassword,
          newPassword: request.newPassword,
        },
        deps,
      );
      return {};
    }),

    getAccount: rpc(async (request: accountV1.GetAccountRequest) =>
      settingsOf(await requireUser(request.sessionToken, deps)),
    ),

    updateAccount: rpc(async (request: accountV1.UpdateAccountRequest) => {
      const userId = await requireUser(request.sessionToken, deps);
      await updateProfile(userId, request, deps);
      return settingsOf(userId);
    }),

    changeEmail: rpc(async (request: accountV1.ChangeEmailRequest) => {
      const userId = await requirePerson(request.sessionToken, deps);
      await changeEmail(userId, request.email, deps);
      return settingsOf(userId);
    }),

    addMail: rpc(async (request: accountV1.AddMailRequest) => {
      const userId = await requireUser(request.sessionToken, deps);
      await addMail(userId, request.email, deps);
      return settingsOf(userId);
    }),

    removeMail: rpc(async (request: accountV1.RemoveMailRequest) => {
      const userId = await requireUser(request.sessionToken, deps);
      await removeMail(userId, request.mailId, deps);
      return settingsOf(userId);
    }),

    linkDiscord: rpc(async (request: accountV1.LinkDiscordRequest) => {
      const userId = await requireUser(request.sessionToken, deps);
      const account = await loadOwnAccount(userId, deps);
      await linkDiscord(userId, account.lang, request.webhookUrl, {
        ...deps.discord,
        accounts: deps.accounts,
      });
      return settingsOf(userId);
    }),

    unlinkDiscord: rpc(async (request: accountV1.UnlinkDiscordRequest) => {
      const userId = await requireUser(request.sessionToken, deps);
      await unlinkDiscord(userId, deps);
      return settingsOf(userId);
    }),

    createSupportRequest: rpc(async (request: accountV1.CreateSupportRequestRequest) => {
      const userId = await requireUser(request.sessionToken, deps);
      return { requestId: await createSupportRequest(userId, request, deps) };
    }),

    getSupportFollowUp: rpc(async (request: accountV1.GetSupportFollowUpRequest) =>
      getSupportFollowUp(request.token, deps),
    ),

    submitSupportFollowUp: rpc(async (request: accountV1.SubmitSupportFollowUpRequest) => {
      await submitSupportFollowUp(request.token, request.notes, deps);
      return {};
    }),

    startXSignIn: rpc(async (request: accountV1.StartXSignInRequest) =>
      startXSignIn(deps.xOAuth, request.redirectUri),
    ),

    finishXSignIn: rpc(async (request: accountV1.FinishXSignInRequest) => {
      return firstFactorAnswer(await finishXSignIn(deps.xOAuth, request, deps));
    }),

    // Internal: the notifier asks by user id; the webhook stays sealed on the way.
    getNotificationProfile: rpc(async (request: accountV1.GetNotificationProfileRequest) => {
      const account = request.userId ? await deps.accounts.loadAccount(request.userId) : null;
      if (!account || account.deleted) return accountV1.GetNotificationProfileResponse.fromPartial({});
      return {
        found: true,
        email: account.email ?? '',
        verifiedMails: account.mails.filter((mail) => mail.verified).map((mail) => mail.email),
        lang: account.lang,
        timezone: account.timezone ?? '',
        discordState: account.discordState,
        sealedDiscordWebhook: (await deps.accounts.sealedDiscordWebhook(account.id)) ?? '',
        webhooks: (await deps.webhooks.list(account.id)).map((webhook) => ({
          id: webhook.id,
          url: webhook.url,
          targetId: webhook.targetId,
          sealedSecret: webhook.sealedSecret,
        })),
        chatLinks: (await deps.chatLinks.list(account.id))
          .filter((link) => link.status === 'linked')
          .map((link) => ({
            id: link.id,
            platform: link.platform,
            targetId: link.targetId,
            sealedCredentials: link.sealedCredentials,
          })),
        quietHours: quietHoursMessage((await deps.accounts.quietHours(account.id)).quiet),
      };
    }),

    getQuietHours: rpc(async (request: accountV1.GetQuietHoursRequest) => {
      const userId = await requireUser(request.sessionToken, deps);
      const { quiet, revision } = await deps.accounts.quietHours(userId);
      return { quietHours: quietHoursMessage(quiet), revision };
    }),

    setQuietHours: rpc(async (request: accountV1.SetQuietHoursRequest) => {
      const userId = await requireUser(request.sessionToken, deps);
      const quiet = request.quietHours ?? NO_QUIET_HOURS;
      const saved = await saveQuietHours(userId, quiet, deps, request.expectedRevision);
      return { quietHours: quietHoursMessage(saved.quiet), revision: saved.revision };
    }),
  };
}

/** A session, or the ticket for the second step (the account has a second factor). */
function firstFactorAnswer(outcome: FirstFactorOutcome): accountV1.SignInResponse {
  if (outcome.kind === 'second_factor') {
    return accountV1.SignInResponse.fromPartial({
      secondFactorTicket: outcome.ticket,
      secondFactorMethods: outcome.methods,
    });
  }
  return accountV1.SignInResponse.fromPartial({
    sessionToken: outcome.token,
    expiresAt: outcome.expiresAt,
    deviceToken: outcome.deviceToken,
  });
}

function quietHoursMessage(quiet: QuietHours): targetsEventsV1.QuietHours {
  return { ...quiet, allDay: [...quiet.allDay] };
}
