import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type AddressObject, simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import type { MailTransport } from './mail-transport.ts';
import { isMailboxId, newMailboxId } from './mailbox-id.ts';
import { messageOptions } from './message-options.ts';

/** One kept message as the mailbox lists it. */
export interface MailboxEntry {
  id: string;
  messageId: string;
  from: string;
  to: string[];
  subject: string;
  /** When it was kept, ISO 8601. */
  date: string;
  attachmentCount: number;
}

export interface MailboxAttachment {
  filename: string;
  contentType: string;
  size: number;
  content: Uint8Array;
  cid?: string;
}

/** One kept message read back from its .eml, as a mail client would show it. */
export interface MailboxMessage {
  id: string;
  messageId: string;
  subject: string;
  from: string;
  to: string;
  date: Date | undefined;
  text: string | undefined;
  /** The HTML body, inline images (`cid:`) turned into data: URLs; undefined when there is none. */
  html: string | undefined;
  attachments: MailboxAttachment[];
}

export interface Mailbox extends MailTransport {
  readonly dir: string;
  /** Newest first. */
  list(): Promise<MailboxEntry[]>;
  read(id: string): Promise<MailboxMessage | null>;
}

const INDEX = 'index.json';

/**
 * The local mailbox of the single-process mode: every message is composed as a real RFC 822
 * message and kept as `<id>.eml` in `dir`, with `index.json` listing them. One process writes a
 * mailbox; the index is rewritten whole (temp file + rename), so readers in other processes
 * see the old list or the new one.
 */
export async function createMailbox(dir: string, options: { from: string }): Promise<Mailbox> {
  await mkdir(dir, { recursive: true });
  return mailboxIn(dir, options.from);
}

/** The same mailbox, with its folder made on the first send (for synchronous configuration). */
export function mailboxIn(dir: string, from: string): Mailbox {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  let writes: Promise<unknown> = Promise.resolve();

  async function readIndex(): Promise<MailboxEntry[]> {
    try {
      return JSON.parse(await readFile(join(dir, INDEX), 'utf8')) as MailboxEntry[];
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  async function writeAtomically(name: string, data: string | Uint8Array) {
    const tmp = join(dir, `.${name}.${process.pid}.tmp`);
    await writeFile(tmp, data);
    await rename(tmp, join(dir, name));
  }

  async function keep(entry: MailboxEntry, message: Uint8Array) {
    await mkdir(dir, { recursive: true });
    await writeAtomically(`${entry.id}.eml`, message);
    await writeAtomically(INDEX, JSON.stringify([...(await readIndex()), entry], null, 2));
  }

  return {
    dir,
    from,

    async send(mail) {
      const info = await composer.sendMail(messageOptions(mail, from));
      const date = new Date();
      const entry: MailboxEntry = {
        id: newMailboxId(date),
        messageId: info.messageId,
        from,
        to: mail.to,
        subject: mail.subject,
        date: date.toISOString(),
        attachmentCount: mail.attachments?.length ?? 0,
      };
      // Sends are serialised so two concurrent ones cannot both rewrite the index from the same old copy.
      const kept = writes.then(() => keep(entry, info.message as Buffer));
      writes = kept.catch(() => {});
      await kept;
      return { messageId: info.messageId };
    },

    async list() {
      const entries = await readIndex();
      return entries.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    },

    async read(id) {
      if (!isMailboxId(id)) return null;
      let raw: Buffer;
      try {
        raw = await readFile(join(dir, `${id}.eml`));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      const parsed = await simpleParser(raw);
      return {
        id,
        messageId: parsed.messageId ?? '',
        subject: parsed.subject ?? '',
        from: parsed.from?.text ?? '',
        to: addressText(parsed.to),
        date: parsed.date,
        text: parsed.text,
        html: parsed.html || undefined,
        attachments: parsed.attachments.map((attachment) => ({
          filename: attachment.filename ?? 'attachment',
          contentType: attachment.contentType,
          size: attachment.size,
          content: new Uint8Array(attachment.content),
          ...(attachment.cid ? { cid: attachment.cid } : {}),
        })),
      };
    },

    async close() {
      await writes;
    },
  };
}

function addressText(address: AddressObject | AddressObject[] | undefined): string {
  if (!address) return '';
  return Array.isArray(address) ? address.map((one) => one.text).join(', ') : address.text;
}
