import { escapeHtml } from '@mimamori/mail';

interface Embed {
  title?: string;
  url?: string;
  description?: string;
  color?: number;
  timestamp?: string;
  fields?: { name?: string; value?: string }[];
  image?: { url?: string };
  thumbnail?: { url?: string };
}

/** One execute-webhook call as the stand-in received it. */
export interface PostedDiscordMessage {
  id: number;
  at: Date;
  webhookId: string;
  payload: { username?: string; content?: string; embeds?: Embed[] };
  files: { filename: string; contentType: string; data: Buffer }[];
}

/**
 * The messages as a Discord channel would show them, newest first: the sender, the text, each
 * embed with its colour bar, title, description, fields and pictures (attachment:// links
 * resolved to the uploaded files).
 */
export function renderDiscordStandInPage(
  messages: readonly PostedDiscordMessage[],
  basePath: string,
): string {
  const body =
    messages.length === 0
      ? "<p>No Discord message yet. Link a Discord webhook in the account or a site, any URL of Discord's form such as <code>https://discord.com/api/webhooks/100000000000000001/mimamori-local-stand-in-mimamori-local-stand-in</code>; what would be posted appears here.</p>"
      : messages.map((message) => messageHtml(message, basePath)).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Discord (local)</title>
<meta name="viewport" content="width=device-width,initial-scale=1"></head>
<body style="margin:0;background:#313338;color:#dbdee1;font-family:sans-serif">
<main style="max-width:760px;margin:0 auto;padding:16px">
<h1 style="font-size:20px;color:#f2f3f5">Discord (local stand-in)</h1>
${body}
</main></body></html>`;
}

function messageHtml(message: PostedDiscordMessage, basePath: string): string {
  const fileUrl = (reference: string | undefined) => {
    const name = reference?.startsWith('attachment://') ? reference.slice('attachment://'.length) : null;
    const index = name === null ? -1 : message.files.findIndex((file) => file.filename === name);
    return index < 0 ? null : `${basePath}/${message.id}/files/${index}`;
  };
  const embeds = (message.payload.embeds ?? []).map((embed: Embed) => {
    const colour = `#${(typeof embed.color === 'number' ? embed.color & 0xffffff : 0x1e1f22).toString(16).padStart(6, '0')}`;
    const title = embed.title
      ? typeof embed.url === 'string' && /^https?:\/\//.test(embed.url)
        ? `<a href="${escapeHtml(embed.url)}" style="color:#00a8fc;font-weight:bold">${escapeHtml(embed.title)}</a>`
        : `<strong>${escapeHtml(embed.title)}</strong>`
      : '';
    const fields = (Array.isArray(embed.fields) ? embed.fields : [])
      .map(
        (field) =>
          `<div style="margin-top:8px"><div style="font-weight:bold;font-size:13px">${escapeHtml(field.name ?? '')}</div><div style="white-space:pre-wrap">${escapeHtml(field.value ?? '')}</div></div>`,
      )
      .join('');
    const thumbnail = fileUrl(embed.thumbnail?.url);
    const image = fileUrl(embed.image?.url);
    return `<div class="embed" style="margin-top:6px;background:#2b2d31;border-left:4px solid ${colour};border-radius:4px;padding:10px 12px">
${thumbnail ? `<img src="${thumbnail}" alt="thumbnail" style="float:right;max-width:80px;margin-left:8px">` : ''}
${title}
<div style="white-space:pre-wrap;margin-top:6px;font-size:14px">${escapeHtml(embed.description ?? '')}</div>
${fields}
${image ? `<img src="${image}" alt="image" style="display:block;max-width:100%;margin-top:10px;border-radius:4px">` : ''}
<div style="clear:both"></div></div>`;
  });
  return `<article class="message" style="padding:12px 0;border-bottom:1px solid #3f4147">
<div><strong style="color:#f2f3f5">${escapeHtml(message.payload.username ?? 'Webhook')}</strong>
<span style="font-size:12px;color:#949ba4">${escapeHtml(message.at.toISOString())} · webhook ${escapeHtml(message.webhookId)}</span></div>
${message.payload.content ? `<div style="white-space:pre-wrap">${escapeHtml(message.payload.content)}</div>` : ''}
${embeds.join('\n')}
</article>`;
}
