import { createHash } from 'node:crypto';

/**
 * The update a check produces is named after the check, so a redelivered snapshot that gets past
 * the processed-event record (a crash before commit) rebuilds the same update, event id and blobs.
 */
export function updateIdFor(checkId: string): string {
  const hex = createHash('sha256').update(`update:${checkId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
