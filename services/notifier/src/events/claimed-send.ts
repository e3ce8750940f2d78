import type { BusMessage } from '@mimamori/bus';
import type { DeliveryChannel, DeliveryLedger } from '../domain/delivery-ledger.ts';

/** What a channel made of one send. */
export type SendOutcome = 'sent' | 'refused' | { retryAfterMs: number | null };

/** Done (sent, refused for good, or sent before) or to be tried again, after a delay if known. */
export type ClaimedSend = { retry: false } | { retry: true; afterMs: number | null };

/**
 * Sends one delivery only while holding its claim, so two copies of an event never send it both.
 * While `send` runs the claim is renewed and the event's ack timer reset, so a slow SMTP server
 * or Discord never lets a second copy in; a sender that dies stops renewing and its claim runs
 * out. A failed send releases the claim for the next copy; a send that throws does too, then
 * the error goes on to the caller. On the event's last try a failed send is final (`failed`).
 */
export async function sendClaimed(
  ledger: DeliveryLedger,
  message: Pick<BusMessage, 'working'>,
  id: string,
  channel: DeliveryChannel,
  send: () => Promise<SendOutcome>,
  options: { lastTry?: boolean } = {},
): Promise<ClaimedSend> {
  const claim = await ledger.claim(id, channel);
  if (claim.kind === 'held') return { retry: true, afterMs: claim.retryAfterMs };
  if (claim.kind !== 'send') return { retry: false };
  const heartbeat = setInterval(
    () => {
      message.working();
      // A lost renewal (database away) only shortens the claim; the send goes on regardless.
      ledger.renew(id, claim.token).catch(() => undefined);
    },
    Math.min(ledger.claimMs / 3, 10_000),
  );
  let outcome: SendOutcome;
  try {
    outcome = await send();
  } catch (error) {
    clearInterval(heartbeat);
    await ledger.release(id, claim.token);
    throw error;
  }
  clearInterval(heartbeat);
  if (outcome === 'sent') {
    await ledger.markSent(id);
    return { retry: false };
  }
  if (outcome === 'refused') {
    await ledger.markGivenUp(id);
    return { retry: false };
  }
  if (options.lastTry) {
    // The event will not come again: the delivery ends as failed rather than `sending` forever.
    await ledger.markFailed(id);
    return { retry: false };
  }
  await ledger.release(id, claim.token);
  return { retry: true, afterMs: outcome.retryAfterMs };
}
