import type { Metrics } from '@mimamori/runtime';
import type { DeliveryChannel, DeliveryLedger } from './domain/delivery-ledger.ts';

/**
 * The ledger, counting what became of each send in `mimamori_deliveries_total` by channel and
 * result: every send goes through claim, then exactly one of markSent (sent), markGivenUp
 * (refused for good) or release (failed, tried again). Counting here sees all four senders
 * (update mail and Discord, account mail, check-result mail) without touching them.
 */
export function countedDeliveries(ledger: DeliveryLedger, metrics: Metrics): DeliveryLedger {
  const deliveries = metrics.counter({
    name: 'mimamori_deliveries_total',
    help: 'Deliveries attempted, by channel (email, discord, webhook, chat) and result (sent, refused, failed, exhausted).',
    labelNames: ['channel', 'result'],
  });
  // The channel of each delivery being sent by this process, from its claim to its outcome.
  const sending = new Map<string, DeliveryChannel>();
  const settle = (id: string, result: 'sent' | 'refused' | 'failed' | 'exhausted') => {
    const channel = sending.get(id);
    if (!channel) return;
    sending.delete(id);
    deliveries.inc({ channel, result });
  };
  return {
    claimMs: ledger.claimMs,
    async claim(id, channel) {
      const claim = await ledger.claim(id, channel);
      if (claim.kind === 'send') sending.set(id, channel);
      return claim;
    },
    renew: (id, token) => ledger.renew(id, token),
    async markSent(id) {
      await ledger.markSent(id);
      settle(id, 'sent');
    },
    async markGivenUp(id) {
      await ledger.markGivenUp(id);
      settle(id, 'refused');
    },
    async markFailed(id) {
      await ledger.markFailed(id);
      settle(id, 'exhausted');
    },
    async release(id, token) {
      settle(id, 'failed');
      await ledger.release(id, token);
    },
  };
}
