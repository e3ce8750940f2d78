import type { SendMailOptions } from 'nodemailer';
import type { OutgoingMail } from './mail-transport.ts';

/** The nodemailer message for one of ours; content is bytes only, never a path or URL to fetch. */
export function messageOptions(mail: OutgoingMail, from: string): SendMailOptions {
  if (mail.to.length === 0) throw new Error('a mail needs at least one recipient');
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html !== undefined ? { html: mail.html } : {}),
    attachments: (mail.attachments ?? []).map((attachment) => ({
      filename: attachment.filename,
      content: Buffer.from(
        attachment.content.buffer,
        attachment.content.byteOffset,
        attachment.content.byteLength,
      ),
      contentType: attachment.contentType,
      ...(attachment.cid ? { cid: attachment.cid } : {}),
    })),
  };
}
