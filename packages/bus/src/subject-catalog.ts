import type { ConsumerSpec, EventBus, MessageHandler } from './event-bus.ts';

/** One subject a service handles, with how it is consumed. */
export interface CatalogEntry {
  stream: string;
  durable: string;
  subject: string;
  maxDeliver: number;
  ackWaitMs: number;
  concurrency?: number;
  handler: MessageHandler;
}

/**
 * Starts every consumer of a service's catalog, after checking that each subject has
 * exactly one handler, that a durable is not reused for another subject, and that each
 * stream exists: a mistake stops the service at start rather than losing messages later.
 * Returns the one function that stops them all (in-flight handlers finish first).
 */
export async function startConsumers(
  bus: EventBus,
  catalog: readonly CatalogEntry[],
): Promise<() => Promise<void>> {
  const problems: string[] = [];
  const bySubject = new Map<string, number>();
  const durables = new Map<string, string>();
  for (const entry of catalog) {
    bySubject.set(entry.subject, (bySubject.get(entry.subject) ?? 0) + 1);
    if (typeof entry.handler !== 'function') problems.push(`subject ${entry.subject} has no handler`);
    const key = `${entry.stream}/${entry.durable}`;
    const taken = durables.get(key);
    if (taken !== undefined && taken !== entry.subject) {
      problems.push(`durable ${entry.durable} on ${entry.stream} is used for ${taken} and ${entry.subject}`);
    }
    durables.set(key, entry.subject);
  }
  for (const [subject, count] of bySubject) {
    if (count > 1) problems.push(`subject ${subject} has ${count} handlers`);
  }
  for (const stream of new Set(catalog.map((entry) => entry.stream))) {
    if (!(await bus.hasStream(stream))) problems.push(`stream ${stream} is not declared`);
  }
  if (problems.length > 0) throw new Error(`subject catalog refused: ${problems.join('; ')}`);

  const started: { stop(): Promise<void> }[] = [];
  try {
    for (const entry of catalog) {
      const spec: ConsumerSpec = {
        stream: entry.stream,
        durable: entry.durable,
        filterSubject: entry.subject,
        maxDeliver: entry.maxDeliver,
        ackWaitMs: entry.ackWaitMs,
        ...(entry.concurrency ? { concurrency: entry.concurrency } : {}),
      };
      started.push(await bus.consume(spec, entry.handler));
    }
  } catch (error) {
    await Promise.all(started.map((consumption) => consumption.stop()));
    throw error;
  }
  return async () => {
    await Promise.all(started.map((consumption) => consumption.stop()));
  };
}
