import type { CatalogEntry } from '@mimamori/bus';
import { accountCreated } from '@mimamori/events';
import type { MailTransport } from '@mimamori/mail';
import type { Logger } from '@mimamori/runtime';
import type { DeliveryLedger } from '../domain/delivery-ledger.ts';
import { welcomeMail } from '../domain/welcome-mail.ts';

export function welcomeConsumer(deps: {
  deliveries: DeliveryLedger;
  mail: MailTransport;
  logger: Logger;
}): CatalogEntry {
  return {
    stream: accountCreated.stream,
    durable: 'notifier-account-created',
    subject: accountCreated.subject,
    maxDeliver: 10,
    ackWaitMs: 30_000,
    async handler(message) {
      const event = accountCreated.decode(message.data);
      const deliveryId = `welcome:${event.userId}:email`;
      if ((await deps.deliveries.begin(deliveryId, 'email')) === 'already_sent') return;
      const { subject, text } = welcomeMail(event.lang);
      await deps.mail.send({ to: [event.email], subject, text });
      await deps.deliveries.markSent(deliveryId);
      deps.logger.info({ deliveryId }, 'welcome mail sent');
    },
  };
}
