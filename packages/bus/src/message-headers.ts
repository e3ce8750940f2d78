/**
 * Headers the bus itself writes. A redriven dead letter is republished under a new
 * transport id (so the duplicate window does not drop it) but keeps its event id here, so
 * idempotent consumers still recognise it.
 */
export const eventIdHeader = 'Mimamori-Event-Id';

/** What a dead letter says about where it came from. */
export const deadLetterHeaders = {
  stream: 'Mimamori-Dead-Stream',
  subject: 'Mimamori-Dead-Subject',
  consumer: 'Mimamori-Dead-Consumer',
  reason: 'Mimamori-Dead-Reason',
  deliveries: 'Mimamori-Dead-Deliveries',
} as const;

/** Headers owned by the transport or the bus, not by whoever published. */
export function isBusHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('nats-') || lower === eventIdHeader.toLowerCase();
}

export function readHeader(headers: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === lower) return value;
  return undefined;
}
