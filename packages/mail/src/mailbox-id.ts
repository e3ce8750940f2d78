import { randomBytes } from 'node:crypto';

const MAILBOX_ID = /^\d{8}T\d{9}Z-[0-9a-f]{8}$/;

/** Sorts by the time it was kept; safe as a file name and a URL segment. */
export function newMailboxId(at: Date): string {
  const stamp = at.toISOString().replace(/[-:.]/g, '');
  return `${stamp}-${randomBytes(4).toString('hex')}`;
}

/** Only ids this mailbox could have made, so an id from a URL never names another file. */
export function isMailboxId(id: string): boolean {
  return MAILBOX_ID.test(id);
}
