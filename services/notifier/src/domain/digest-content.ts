import type { ChatMessage } from '@mimamori/chat';
import { escapeHtml } from '@mimamori/mail/html-escape';
import type { DiscordMessage } from './discord-message.ts';
import { BRAND, brandedMail, mailHeading } from './mail-layout.ts';
import { writtenTime } from './written-time.ts';

/** One update held during quiet hours, as the digest lists it (docs/product.md#quiet-hours). */
export interface DigestItem {
  updateId: string;
  targetId: string;
  label: string;
  url: string;
  /** The update's one line in the reader's language. */
  summary: string;
  detectedAt: Date;
  historyUrl: string;
}

/** The updates held for one channel, sent when the quiet hours ended. */
export interface Digest {
  lang: 'ja' | 'en';
  timezone: string;
  /** When the quiet hours began and ended (the first held update and the release). */
  from: Date;
  until: Date;
  items: DigestItem[];
}

const WORDS = {
  ja: {
    subject: (count: number) => `【Mimamori】お休み中の更新 ${count} 件`,
    lead: (from: string, until: string) => `${from}から${until}までのお休み中に見つかった更新です。`,
    history: '履歴',
    footer: 'お休みの時間帯はアカウントまたはサイトの通知設定で変更できます。',
  },
  en: {
    subject: (count: number) =>
      `Mimamori: ${count} ${count === 1 ? 'update' : 'updates'} from your quiet hours`,
    lead: (from: string, until: string) => `The updates found during your quiet hours, ${from} to ${until}.`,
    history: 'History',
    footer: 'Change your quiet hours in the account’s or the site’s notification settings.',
  },
} as const;

function itemLine(item: DigestItem, digest: Digest): string {
  return `${writtenTime(item.detectedAt, digest.timezone, digest.lang)} ${item.label}: ${item.summary}`;
}

/** The digest mail: one line per held update, oldest first, each with its history link. */
export function digestMailContent(digest: Digest): { subject: string; text: string; html: string } {
  const words = WORDS[digest.lang];
  const when = (at: Date) => writtenTime(at, digest.timezone, digest.lang);
  const subject = words.subject(digest.items.length);
  const lead = words.lead(when(digest.from), when(digest.until));
  const text = [
    lead,
    '',
    ...digest.items.flatMap((item) => [
      `■ ${itemLine(item, digest)}`,
      ...(item.historyUrl ? [`  ${item.historyUrl}`] : [`  ${item.url}`]),
    ]),
    '',
    '-- Mimamori',
    words.footer,
  ].join('\n');
  const rows = digest.items
    .map((item) => {
      const link = item.historyUrl || item.url;
      return `<tr><td style="padding:8px 0;border-bottom:1px solid ${BRAND.border}">
<div style="font-size:12px;color:${BRAND.muted}">${escapeHtml(when(item.detectedAt))} · ${escapeHtml(item.label)}</div>
<div style="font-weight:bold">${escapeHtml(item.summary)}</div>
<a href="${escapeHtml(link)}" style="color:${BRAND.accent};font-size:13px">${escapeHtml(words.history)}</a>
</td></tr>`;
    })
    .join('');
  const html = brandedMail({
    lang: digest.lang,
    title: subject,
    preheader: lead,
    body: [
      `<p style="margin:0 0 12px">${escapeHtml(lead)}</p>`,
      mailHeading(subject.replace(/^【Mimamori】|^Mimamori: /, '')),
      `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">${rows}</table>`,
    ].join('\n'),
    footer: words.footer,
  });
  return { subject, text, html };
}

/** Discord's limits for one embed's description. */
const DESCRIPTION_LIMIT = 4096;

/** The digest on Discord: one embed listing the updates, cut with a count when it outgrows the embed. */
export function digestDiscordMessage(digest: Digest): DiscordMessage {
  const words = WORDS[digest.lang];
  const lines: string[] = [];
  let length = 0;
  for (const [index, item] of digest.items.entries()) {
    const link = item.historyUrl || item.url;
    const line = `• ${itemLine(item, digest)}${/^https?:\/\//.test(link) ? ` — ${link}` : ''}`;
    const rest = digest.items.length - index;
    if (length + line.length + 40 > DESCRIPTION_LIMIT) {
      lines.push(digest.lang === 'ja' ? `…ほか ${rest} 件` : `… and ${rest} more`);
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  return {
    payload: {
      username: 'Mimamori',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: words.subject(digest.items.length).slice(0, 256),
          description: lines.join('\n'),
          color: 0x0f766e,
          timestamp: digest.until.toISOString(),
          fields: [],
        },
      ],
      attachments: [],
    },
    files: [],
  };
}

/** How much of the digest one chat message carries; the smallest platform limit (LINE's 5,000) with room. */
const CHAT_BODY_LIMIT = 4000;

/** The digest on a chat link: one message listing the updates, cut with a count when it outgrows the platform. */
export function digestChatMessage(digest: Digest): ChatMessage {
  const words = WORDS[digest.lang];
  const lines: string[] = [];
  let length = 0;
  for (const [index, item] of digest.items.entries()) {
    const link = item.historyUrl || item.url;
    const line = `• ${itemLine(item, digest)}${/^https?:\/\//.test(link) ? ` — ${link}` : ''}`;
    if (length + line.length + 40 > CHAT_BODY_LIMIT) {
      const rest = digest.items.length - index;
      lines.push(digest.lang === 'ja' ? `…ほか ${rest} 件` : `… and ${rest} more`);
      break;
    }
    lines.push(line);
    length += line.length + 1;
  }
  const when = (at: Date) => writtenTime(at, digest.timezone, digest.lang);
  return {
    kind: 'digest',
    lang: digest.lang,
    title: words.subject(digest.items.length).replace(/^【Mimamori】|^Mimamori: /, ''),
    fields: [],
    body: [words.lead(when(digest.from), when(digest.until)), '', ...lines].join('\n'),
    link: null,
    images: [],
  };
}

/** The digest as one webhook delivery (`type: "digest"`, docs/webhooks.md): the updates it holds. */
export function digestWebhookPayload(id: string, digest: Digest): string {
  return JSON.stringify({
    type: 'digest',
    id,
    from: digest.from.toISOString(),
    until: digest.until.toISOString(),
    updates: digest.items.map((item) => ({
      id: item.updateId,
      site: { id: item.targetId, label: item.label, url: item.url, history_url: item.historyUrl || null },
      summary: item.summary,
      detected_at: item.detectedAt.toISOString(),
    })),
    timezone: digest.timezone,
    lang: digest.lang,
  });
}
