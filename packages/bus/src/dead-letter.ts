import { deadLetterSubject } from './event-bus.ts';
import { deadLetterHeaders, eventIdHeader } from './message-headers.ts';
import type { Delivery } from './run-delivery.ts';

/** The copy of a failed message kept in the dead-letter stream, with where it came from. */
export function deadLetterOf(delivery: Delivery, stream: string, consumer: string, reason: string) {
  return {
    subject: deadLetterSubject(stream, delivery.subject),
    data: delivery.data,
    // One dead letter per consumer and publication, even if dead-lettering itself is retried.
    msgId: `${stream}:${consumer}:${delivery.publishId}`,
    headers: {
      ...delivery.headers,
      [eventIdHeader]: delivery.eventId,
      [deadLetterHeaders.stream]: stream,
      [deadLetterHeaders.subject]: delivery.subject,
      [deadLetterHeaders.consumer]: consumer,
      [deadLetterHeaders.reason]: reason.replace(/[\r\n]+/g, ' '),
      [deadLetterHeaders.deliveries]: String(delivery.deliveryCount),
    },
  };
}
