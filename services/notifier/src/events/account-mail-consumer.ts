import type { CatalogEntry } from '@mimamori/bus';
import { accountMailRequested } from '@mimamori/events';
import type { MailTransport } from '@mimamori/mail';
import type { Logger } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import {
  accountMailContent,
  BILLING_LINK_PATHS,
  type BillingMailKind,
  isAccountMailKind,
  LINK_PATHS,
  SCREEN_LINK_PATHS,
} from '../domain/account-mail-content.ts';
import type { DeliveryLedger } from '../domain/delivery-ledger.ts';
import { sendClaimed } from './claimed-send.ts';

/**
 * Sends the account service's mails (verification, reset, support confirmation, sign-up with
 * a registered address). The link token arrives sealed; it is opened only to build the link.
 */
export function accountMailConsumer(deps: {
  deliveries: DeliveryLedger;
  mail: MailTransport;
  secretBox: SecretBox;
  /** The product's address in the browser, e.g. https://mimamori.example. */
  publicUrl: () => string;
  logger: Logger;
}): CatalogEntry {
  return {
    stream: accountMailRequested.stream,
    durable: 'notifier-account-mail',
    subject: accountMailRequested.subject,
    maxDeliver: 10,
    ackWaitMs: 30_000,
    async handler(message) {
      const event = accountMailRequested.decode(message.data);
      if (!isAccountMailKind(event.kind)) {
        deps.logger.error({ eventId: event.eventId, kind: event.kind }, 'unknown account mail kind');
        return;
      }
      const deliveryId = `${event.eventId}:email`;
      const kind = event.kind;
      const sent = await sendClaimed(deps.deliveries, message, deliveryId, 'email', async () => {
        const path = LINK_PATHS[kind];
        let link: string | null = null;
        if (path && event.sealedToken) {
          const token = deps.secretBox.open(event.sealedToken, event.eventId);
          link = new URL(`${path}?token=${encodeURIComponent(token)}`, deps.publicUrl()).toString();
        }
        const billingPath = BILLING_LINK_PATHS[kind as BillingMailKind];
        if (billingPath) link = new URL(billingPath, deps.publicUrl()).toString();
        const screenPath = SCREEN_LINK_PATHS[kind];
        if (screenPath) link = new URL(screenPath, deps.publicUrl()).toString();
        await deps.mail.send({
          to: [event.to],
          ...accountMailContent(kind, event.lang, link, event.supportType, {
            date: event.billingDate ?? null,
            plan: event.plan,
            timezone: event.timezone,
            ...(event.currency === 'JPY' || event.currency === 'USD'
              ? {
                  price: {
                    amount: event.price,
                    currency: event.currency,
                    cycle: event.cycle === 'year' ? 'year' : 'month',
                  },
                }
              : {}),
            chat: { platform: event.chatPlatform, label: event.chatLabel, reason: event.chatReason },
            invitation: {
              workspaceName: event.workspaceName,
              role: event.memberRole,
              inviterName: event.inviterName,
            },
            device: {
              browser: event.deviceBrowser,
              os: event.deviceOs,
              clientAddress: event.deviceClientAddress,
            },
          }),
        });
        deps.logger.info({ deliveryId, kind }, 'account mail sent');
        return 'sent';
      });
      // Another copy of this event is sending the mail now: ask again once its claim is out.
      if (sent.retry) message.nak(sent.afterMs ?? undefined);
    },
  };
}
