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

/** One mail as the mailbox shows it: its page's path, its text part and its attachments' types. */
export type MailboxMail = { path: string; text: string; attachmentTypes: string[] };

/**
 * Waits up to `waitMs` for a mail to `to` whose text holds `needle` (e.g. a site's history link)
 * and returns it as the mailbox shows it.
 */
export async function mailFromMailbox(
  productUrl: URL,
  to: string,
  needle: string,
  waitMs: number,
): Promise<MailboxMail> {
  const deadline = Date.now() + waitMs;
  const seen = new Set<string>();
  while (Date.now() < deadline) {
    const list = await (await fetch(new URL('dev/mailbox', productUrl))).text();
    for (const row of list.split('<tr>')) {
      const href = /<a href="([^"]+)"/.exec(row)?.[1];
      if (!href || !row.includes(to) || seen.has(href)) continue;
      seen.add(href);
      const page = await (await fetch(new URL(href, productUrl))).text();
      const text = unescapeHtml(/<h2>Text<\/h2>\s*<pre>([\s\S]*?)<\/pre>/.exec(page)?.[1] ?? '');
      if (!text.includes(needle)) continue;
      const attachmentTypes = [
        ...page.matchAll(/<li><a href="[^"]+">[^<]*<\/a> \(([^,]+), \d+ bytes\)<\/li>/g),
      ].map((match) => match[1] ?? '');
      return { path: href, text, attachmentTypes };
    }
    await sleep(1_000);
  }
  throw new Error(`no mail to ${to} holding ${needle} arrived within ${waitMs / 1000} s`);
}

function unescapeHtml(html: string): string {
  return html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}
