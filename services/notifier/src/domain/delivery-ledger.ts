/**
 * Remembers what was delivered so a redelivered event sends nothing twice. A crash between
 * sending and `markSent` can still repeat a message: delivery is at least once.
 */
export interface DeliveryLedger {
  /** `given_up`: the channel refused the message for good (a deleted webhook); not retried. */
  begin(id: string, channel: 'email' | 'discord'): Promise<'send' | 'already_sent' | 'given_up'>;
  markSent(id: string): Promise<void>;
  markGivenUp(id: string): Promise<void>;
}
