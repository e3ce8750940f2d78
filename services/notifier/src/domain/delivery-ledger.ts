/**
 * Remembers what was delivered so a redelivered event sends nothing twice. A crash between
 * sending and `markSent` can still repeat a message: delivery is at least once.
 */
export interface DeliveryLedger {
  begin(id: string, channel: 'email' | 'discord'): Promise<'send' | 'already_sent'>;
  markSent(id: string): Promise<void>;
}
