import type { CatalogEntry } from '@mimamori/bus';
import { accountMailRequested } from '@mimamori/events';
import type { MailTransport } from '@mimamori/mail';
import type { Logger } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import { accountMailContent, isAccountMailKind, LINK_PATHS } from '../domain/account-mail-content.ts';
import type { DeliveryLedger } from '../domain/delivery-ledger.ts';

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
      if ((await deps.deliveries.begin(deliveryId, 'email')) !== 'send') return;
      const path = LINK_PATHS[event.kind];
      let link: string | null = null;
      if (path && event.sealedToken) {
        const token = deps.secretBox.open(event.sealedToken, event.eventId);
        link = new URL(`${path}?token=${encodeURIComponent(token)}`, deps.publicUrl()).toString();
      }
      await deps.mail.send({
        to: [event.to],
        ...accountMailContent(event.kind, event.lang, link, event.supportType),
      });
      await deps.deliveries.markSent(deliveryId);
      deps.logger.info({ deliveryId, kind: event.kind }, 'account mail sent');
    },
  };
}
