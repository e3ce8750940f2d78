export interface MailAttachment {
  filename: string;
  content: Uint8Array;
  contentType: string;
  /** Content-ID, so the HTML body can show it inline with `<img src="cid:…">`. */
  cid?: string;
}

export interface OutgoingMail {
  to: string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
}

/** Where outgoing e-mail goes: an SMTP server, or the local mailbox of the single-process mode. */
export interface MailTransport {
  /** The From header of every message this transport sends. */
  readonly from: string;
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  /** Lets sends in flight finish, then releases connections. */
  close(): Promise<void>;
}
