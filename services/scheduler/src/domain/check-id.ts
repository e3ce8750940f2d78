/**
 * The check's id and message id: the site and the due time, so two replicas (or a retried
 * tick) dispatching the same due time publish one message id, which JetStream drops.
 */
export function checkIdFor(targetId: string, dueAt: Date): string {
  return `${targetId}:${dueAt.toISOString()}`;
}
