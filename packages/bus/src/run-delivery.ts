import type { BusMessage, MessageHandler } from './event-bus.ts';
import { handleTraced } from './message-tracing.ts';
import type { RetryDelay } from './retry-delay.ts';

/** One delivery as an adapter sees it: the message plus the transport's own settlements. */
export interface Delivery {
  subject: string;
  data: Uint8Array;
  /** The event id handlers see. */
  eventId: string;
  /** The transport's duplicate-detection id (differs from the event id after a redrive). */
  publishId: string;
  headers: Record<string, string>;
  deliveryCount: number;
  pending?: number;
  ack(): void;
  nak(delayMs: number): void;
  term(): void;
  working(): void;
}

export interface DeliveryRules {
  stream: string;
  consumer: string;
  maxDeliver: number;
  retryDelay: RetryDelay;
  /** Publishes the message to the dead-letter stream; settles nothing. */
  deadLetter(delivery: Delivery, reason: string): Promise<void>;
  onHandlerError?(error: unknown, delivery: Delivery): void;
}

/**
 * The handler semantics both adapters share, so they cannot drift apart: returning acks,
 * throwing naks with backoff, and a delivery that fails (or is termed) on its last allowed
 * attempt goes to the dead-letter stream before it is terminated. A delivery beyond
 * `maxDeliver` (the previous one timed out) is dead-lettered without running the handler.
 * The server redelivers without limit; the limit is kept here so a message is never
 * dropped silently when the dead-letter publish itself fails.
 */
export async function runDelivery(
  delivery: Delivery,
  handler: MessageHandler,
  rules: DeliveryRules,
): Promise<void> {
  if (delivery.deliveryCount > rules.maxDeliver) {
    await deadLetterThenTerm(delivery, rules, `not acknowledged within ${rules.maxDeliver} deliveries`);
    return;
  }
  let settled = false;
  const deadLettering: Promise<void>[] = [];
  const isLast = delivery.deliveryCount >= rules.maxDeliver;
  const message: BusMessage = {
    subject: delivery.subject,
    data: delivery.data,
    msgId: delivery.eventId,
    headers: delivery.headers,
    deliveryCount: delivery.deliveryCount,
    ...(delivery.pending !== undefined ? { pending: delivery.pending } : {}),
    ack() {
      if (settled) return;
      settled = true;
      delivery.ack();
    },
    nak(delayMs = 0) {
      if (settled) return;
      settled = true;
      if (isLast)
        deadLettering.push(
          deadLetterThenTerm(
            delivery,
            rules,
            `nak on delivery ${delivery.deliveryCount} of ${rules.maxDeliver}`,
          ),
        );
      else delivery.nak(delayMs);
    },
    term(reason = 'terminated by its handler') {
      if (settled) return;
      settled = true;
      deadLettering.push(deadLetterThenTerm(delivery, rules, reason));
    },
    working() {
      if (!settled) delivery.working();
    },
  };
  try {
    await handleTraced(message, rules.consumer, () => handler(message));
    message.ack();
  } catch (error) {
    rules.onHandlerError?.(error, delivery);
    if (!settled) {
      settled = true;
      if (isLast) {
        const why = error instanceof Error ? error.message : String(error);
        await deadLetterThenTerm(delivery, rules, `failed ${rules.maxDeliver} deliveries: ${why}`);
      } else {
        delivery.nak(rules.retryDelay(delivery.deliveryCount));
      }
    }
  }
  await Promise.all(deadLettering);
}

async function deadLetterThenTerm(delivery: Delivery, rules: DeliveryRules, reason: string): Promise<void> {
  try {
    await rules.deadLetter(delivery, reason);
    delivery.term();
  } catch (error) {
    // Without its dead letter the message must not disappear: hand it back to try again.
    rules.onHandlerError?.(error, delivery);
    delivery.nak(rules.retryDelay(delivery.deliveryCount));
  }
}
