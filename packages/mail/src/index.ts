export { escapeHtml } from './html-escape.ts';
export type { MailAttachment, MailTransport, OutgoingMail } from './mail-transport.ts';
export {
  createMailbox,
  type Mailbox,
  type MailboxAttachment,
  type MailboxEntry,
  type MailboxMessage,
} from './mailbox.ts';
export { type MailboxPageOptions, renderMailboxPage, renderMailPage } from './mailbox-pages.ts';
export { openMailTransport } from './open-mail-transport.ts';
export { createSmtpTransport, type SmtpTransportOptions } from './smtp-transport.ts';
