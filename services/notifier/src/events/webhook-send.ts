import type { BusMessage } from '@mimamori/bus';
import type { Logger } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import type { WebhookPoster } from '@mimamori/webhook';
import type { DeliveryLedger } from '../domain/delivery-ledger.ts';
import type { ProfileWebhook } from '../domain/webhook-payload.ts';
import { type ClaimedSend, sendClaimed } from './claimed-send.ts';

/** What a signed webhook delivery needs: the ledger, the secrets' box and the guarded poster. */
export interface WebhookSendDeps {
  deliveries: DeliveryLedger;
  secretBox: SecretBox;
  webhooks: Pick<WebhookPoster, 'post'>;
}

/**
 * One signed POST to one webhook URL, through the SSRF guard: a 2xx is delivered; any other
 * answer or none is tried again with the event's backoff; a URL that now leads to a forbidden
 * address is refused for good. Stripe-like: `Mimamori-Signature: t=…,v1=…` (docs/webhooks.md).
 */
export async function sendWebhook(
  deliveryId: string,
  message: Pick<BusMessage, 'working'>,
  webhook: ProfileWebhook & { userId: string },
  body: () => string,
  deps: WebhookSendDeps,
  log: Logger,
  lastTry: boolean,
): Promise<ClaimedSend> {
  let secret: string;
  try {
    secret = deps.secretBox.open(webhook.sealedSecret, `account:${webhook.userId}:webhook:${webhook.id}`);
  } catch {
    log.warn({ deliveryId }, 'webhook secret does not open; not posted');
    return { retry: false };
  }
  return sendClaimed(
    deps.deliveries,
    message,
    deliveryId,
    'webhook',
    async () => {
      const answer = await deps.webhooks.post(webhook.url, body(), secret);
      if (answer.kind === 'answered' && answer.status >= 200 && answer.status < 300) {
        log.info({ deliveryId, status: answer.status }, 'webhook delivered');
        return 'sent';
      }
      if (answer.kind === 'refused') {
        log.warn(
          { deliveryId, reason: answer.reason },
          'webhook URL refused by the egress guard; not retried',
        );
        return 'refused';
      }
      log.warn(
        { deliveryId, status: answer.kind === 'answered' ? answer.status : null, lastTry },
        'webhook not delivered; will retry',
      );
      return { retryAfterMs: null };
    },
    { lastTry },
  );
}
