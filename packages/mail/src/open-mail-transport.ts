import { resolve } from 'node:path';
import type { MailTransport } from './mail-transport.ts';
import { mailboxIn } from './mailbox.ts';
import { createSmtpTransport } from './smtp-transport.ts';

/**
 * `smtp://user:pass@host:port` or `smtps://…` sends through that server; `mailbox:<folder>` keeps
 * every message in a local mailbox instead.
 */
export function openMailTransport(url: string, from: string): MailTransport {
  if (url.startsWith('smtp://') || url.startsWith('smtps://')) return createSmtpTransport({ url, from });
  if (url.startsWith('mailbox:')) {
    const dir = url.slice('mailbox:'.length);
    if (!dir) throw new Error('SMTP_URL mailbox:<folder> needs a folder');
    return mailboxIn(resolve(dir), from);
  }
  // Only the scheme: the rest may carry credentials.
  throw new Error(`SMTP_URL must start with smtp://, smtps:// or mailbox: (got ${url.split(':')[0]}:)`);
}
