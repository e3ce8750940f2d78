/** The channel a delivery goes on: an update's or account's mail, Discord, one signed webhook URL or one chat link. */
export type DeliveryChannel = 'email' | 'discord' | 'webhook' | 'chat';

/**
 * What became of one delivery (one message on one channel) when a copy of its event asked to
 * send it. Events arrive at least once, sometimes two copies at the same instant (an ack timeout
 * mid-send); the claim lets exactly one of them send.
 */
export type DeliveryClaim =
  /** This copy holds the delivery until `token`'s claim runs out; it sends. */
  | { kind: 'send'; token: string }
  | { kind: 'already_sent' }
  /**
   * The channel refused the message for good (a deleted webhook), or every retry failed
   * (status `failed`); not tried again.
   */
  | { kind: 'given_up' }
  /** Another copy is sending it right now; ask again once its claim runs out. */
  | { kind: 'held'; retryAfterMs: number };

/**
 * Remembers what was delivered so a redelivered event sends nothing twice. A sender that dies
 * after the channel took the message but before `markSent` leaves its claim to run out; the next
 * copy then sends again. That is the one duplicate left: delivery is at least once.
 */
export interface DeliveryLedger {
  /** How long a claim lasts unless renewed; a dead sender's delivery is free again after it. */
  readonly claimMs: number;
  claim(id: string, channel: DeliveryChannel): Promise<DeliveryClaim>;
  /** Extends a claim still held under `token`; false when it was lost (ran out, taken over). */
  renew(id: string, token: string): Promise<boolean>;
  markSent(id: string): Promise<void>;
  markGivenUp(id: string): Promise<void>;
  /** The last try the event gets failed too: the delivery is final as `failed`, not left `sending`. */
  markFailed(id: string): Promise<void>;
  /** The send failed: the delivery is free for the next copy at once. */
  release(id: string, token: string): Promise<void>;
}
