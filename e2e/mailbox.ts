import { setTimeout as sleep } from 'node:timers/promises';

// Generous: on a loaded 2-core machine the outbox, bus and notifier can take a while.
const MAIL_WAIT_MS = 60_000;

/**
 * Reads the product's local mailbox (`/dev/mailbox`) as a person would: the newest mail to
 * `to` whose text holds a link to `linkPath`, waiting for the notifier to deliver it.
 * Returns the link's path and query, to be opened against the product's own address.
 */
export async function linkFromMailbox(productUrl: URL, to: string, linkPath: string): Promise<string> {
  const pattern = new RegExp(`${linkPath.replace(/[/?]/g, '\\$&')}\\?token=[^\\s"<&]+`);
  const deadline = Date.now() + MAIL_WAIT_MS;
  const seen = new Set<string>();
  while (Date.now() < deadline) {
    const list = await (await fetch(new URL('dev/mailbox', productUrl))).text();
    for (const row of list.split('<tr>')) {
      const href = /<a href="([^"]+)"/.exec(row)?.[1];
      if (!href || !row.includes(to) || seen.has(href)) continue;
      seen.add(href);
      const message = await (await fetch(new URL(href, productUrl))).text();
      const link = pattern.exec(message)?.[0];
      if (link) return link;
    }
    await sleep(250);
  }
  throw new Error(`no mail to ${to} with a ${linkPath} link arrived within ${MAIL_WAIT_MS / 1000} s`);
}
