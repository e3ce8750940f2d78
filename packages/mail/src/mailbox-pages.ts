import { escapeHtml } from './html-escape.ts';
import type { Mailbox, MailboxMessage } from './mailbox.ts';

export interface MailboxPageOptions {
  /** Where the gateway serves the mailbox, e.g. `/dev/mailbox`. */
  basePath: string;
}

// A mail's HTML runs in an iframe with every sandbox restriction on (no scripts, no forms, an
// opaque origin), and this policy also keeps it from loading anything from the network:
// inline images arrive as data: URLs.
const MAIL_BODY_POLICY = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:";

const STYLE = `
body { font-family: system-ui, 'Noto Sans CJK JP', sans-serif; margin: 2rem; color: #1f2933; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #d9e2ec; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1rem; }
dt { font-weight: 600; }
/* Long addresses and message ids wrap rather than widen a phone's page. */
dd, td { margin: 0; min-width: 0; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f5f7fa; padding: 1rem; }
@media (max-width: 600px) { body { margin: 1rem; } }
iframe { width: 100%; min-height: 30rem; border: 1px solid #d9e2ec; }
`;

/** The list of kept mail, newest first, each linking to its own page. */
export async function renderMailboxPage(mailbox: Mailbox, options: MailboxPageOptions): Promise<string> {
  const base = trimSlash(options.basePath);
  const entries = await mailbox.list();
  const rows = entries.map(
    (entry) => `<tr>
<td>${escapeHtml(formatDate(new Date(entry.date)))}</td>
<td>${escapeHtml(entry.to.join(', '))}</td>
<td><a href="${escapeHtml(`${base}/${encodeURIComponent(entry.id)}`)}">${escapeHtml(entry.subject || '(no subject)')}</a></td>
<td>${entry.attachmentCount || ''}</td>
</tr>`,
  );
  const body =
    rows.length === 0
      ? '<p>No mail yet.</p>'
      : `<table>
<thead><tr><th>Kept</th><th>To</th><th>Subject</th><th>Attachments</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`;
  return page(
    'Mailbox',
    `<h1>Mailbox</h1>
<p>Mail the product sent, kept here instead of delivered.</p>
${body}`,
  );
}

/** One kept message: headers, text body, HTML body sandboxed, attachments as links; null when unknown. */
export async function renderMailPage(
  mailbox: Mailbox,
  id: string,
  options: MailboxPageOptions,
): Promise<string | null> {
  const message = await mailbox.read(id);
  return message ? mailPage(message, trimSlash(options.basePath)) : null;
}

function mailPage(message: MailboxMessage, base: string): string {
  const messagePath = `${base}/${encodeURIComponent(message.id)}`;
  const attachments = message.attachments.map(
    (attachment, index) =>
      `<li><a href="${escapeHtml(`${messagePath}/attachments/${index}`)}">${escapeHtml(attachment.filename)}</a> (${escapeHtml(attachment.contentType)}, ${attachment.size} bytes)</li>`,
  );
  const sections = [
    `<p><a href="${escapeHtml(base)}">← Mailbox</a></p>`,
    `<h1>${escapeHtml(message.subject || '(no subject)')}</h1>`,
    `<dl>
<dt>From</dt><dd>${escapeHtml(message.from)}</dd>
<dt>To</dt><dd>${escapeHtml(message.to)}</dd>
<dt>Date</dt><dd>${escapeHtml(message.date ? formatDate(message.date) : '')}</dd>
<dt>Message-ID</dt><dd>${escapeHtml(message.messageId)}</dd>
</dl>`,
  ];
  if (message.html !== undefined) {
    const document = `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${MAIL_BODY_POLICY}">${message.html}`;
    sections.push(`<h2>HTML</h2>
<iframe sandbox="" referrerpolicy="no-referrer" title="HTML body" srcdoc="${escapeHtml(document)}"></iframe>`);
  }
  if (message.text !== undefined) sections.push(`<h2>Text</h2>\n<pre>${escapeHtml(message.text)}</pre>`);
  if (attachments.length > 0) sections.push(`<h2>Attachments</h2>\n<ul>\n${attachments.join('\n')}\n</ul>`);
  return page(message.subject || 'Mail', sections.join('\n'));
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — Mimamori mailbox</title>
<style>${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function formatDate(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

function trimSlash(path: string): string {
  return path.replace(/\/+$/, '');
}
