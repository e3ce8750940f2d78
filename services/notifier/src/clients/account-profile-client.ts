import type { accountV1 } from '@mimamori/contracts';
import { NO_QUIET_HOURS } from '@mimamori/quiet-hours';
import { unary } from '@mimamori/runtime';
import type { NotificationProfileSource } from '../domain/notification-profile.ts';

/** Reads a user's notification profile from the account service (GetNotificationProfile). */
export function accountProfileClient(
  connect: () => accountV1.AccountServiceClient,
): NotificationProfileSource {
  // Connected on first use: in one process the account service may start after this one is built.
  let client: accountV1.AccountServiceClient | undefined;
  return {
    async read(userId) {
      client ??= connect();
      const answer = await unary(client, 'getNotificationProfile', { userId });
      if (!answer.found) return null;
      return {
        email: answer.email,
        verifiedMails: answer.verifiedMails,
        lang: answer.lang === 'en' ? 'en' : 'ja',
        timezone: answer.timezone,
        sealedDiscordWebhook: answer.sealedDiscordWebhook,
        webhooks: answer.webhooks.map((webhook) => ({
          id: webhook.id,
          url: webhook.url,
          targetId: webhook.targetId,
          sealedSecret: webhook.sealedSecret,
        })),
        chatLinks: answer.chatLinks.map((link) => ({
          id: link.id,
          platform: link.platform,
          targetId: link.targetId,
          sealedCredentials: link.sealedCredentials,
        })),
        quietHours: answer.quietHours ? { ...answer.quietHours } : NO_QUIET_HOURS,
      };
    },
    close: () => client?.close(),
  };
}
