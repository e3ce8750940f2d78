import nodemailer from 'nodemailer';
import type { MailTransport } from './mail-transport.ts';
import { messageOptions } from './message-options.ts';

export interface SmtpTransportOptions {
  /** `smtp://user:pass@host:port` (STARTTLS when offered) or `smtps://…` (TLS from the start). */
  url: string;
  from: string;
}

/**
 * Sends through an SMTP server over a small connection pool, so a burst of notifications
 * does not open a connection per message. Nodemailer's own logging stays off: its debug
 * output would include the AUTH exchange.
 */
export function createSmtpTransport(options: SmtpTransportOptions): MailTransport {
  const transporter = nodemailer.createTransport({
    url: options.url,
    pool: true,
    maxConnections: 2,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
    logger: false,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const inFlight = new Set<Promise<unknown>>();

  return {
    from: options.from,
    async send(mail) {
      const sending = transporter.sendMail(messageOptions(mail, options.from));
      inFlight.add(sending);
      try {
        const info = await sending;
        return { messageId: info.messageId };
      } finally {
        inFlight.delete(sending);
      }
    },
    async close() {
      await Promise.allSettled([...inFlight]);
      transporter.close();
    },
  };
}
