import { escapeHtml } from '@mimamori/mail/html-escape';
import type { DiscordMessage } from './discord-message.ts';
import { BRAND, brandedMail, mailButton } from './mail-layout.ts';
import { writtenTime } from './written-time.ts';

/** A new filing of a company one user follows, in that user's language and zone. */
export interface FilingNotice {
  lang: 'ja' | 'en';
  timezone: string;
  /** The follow as the dashboard lists it. */
  followLabel: string;
  /** The company as the source names it. */
  companyName: string;
  companyCode: string;
  source: string;
  title: string;
  documentUrl: string;
  publishedAt: Date;
}

export const SOURCE_NAMES: Record<string, string> = {
  tdnet: 'TDnet',
  edinet: 'EDINET',
  sec: 'SEC EDGAR',
  globenewswire: 'GlobeNewswire',
};

/** The words every channel uses for a filing, in the reader's language. */
export const FILING_WORDS = {
  ja: {
    subject: (company: string, title: string) => `【Mimamori】新しい開示: ${company}「${title}」`,
    intro: 'フォロー中の企業が開示を行いました。',
    company: '企業',
    title: '表題',
    publishedAt: '開示日時',
    source: '開示元',
    open: '書類を開く',
    footer:
      'このメールは Mimamori のダッシュボードでフォローした企業の開示をお知らせしています。フォローの解除はダッシュボードから行えます。',
  },
  en: {
    subject: (company: string, title: string) => `Mimamori: ${company} filed "${title}"`,
    intro: 'A company you follow has published a filing.',
    company: 'Company',
    title: 'Title',
    publishedAt: 'Published',
    source: 'Source',
    open: 'Open the document',
    footer:
      'You receive this mail because you follow this company on your Mimamori dashboard. Unfollow it in the dashboard’s filings section.',
  },
} as const;

export function companyLine(notice: FilingNotice): string {
  const name = notice.companyName || notice.followLabel;
  return notice.companyCode ? `${name} (${notice.companyCode})` : name;
}

/** Only http(s) links are shown as links: the source's text is not trusted to carry a safe one. */
export function safeLink(url: string): string {
  return /^https?:\/\//i.test(url) ? url : '';
}

/** The filing mail: text and HTML with the same facts and a button to the document. */
export function filingMailContent(notice: FilingNotice): { subject: string; text: string; html: string } {
  const words = FILING_WORDS[notice.lang];
  const when = writtenTime(notice.publishedAt, notice.timezone, notice.lang);
  const company = companyLine(notice);
  const source = SOURCE_NAMES[notice.source] ?? notice.source;
  const link = safeLink(notice.documentUrl);
  const subject = words.subject(notice.companyName || notice.followLabel, notice.title);
  const text = [
    words.intro,
    '',
    `${words.company}: ${company}`,
    `${words.title}: ${notice.title}`,
    `${words.publishedAt}: ${when}`,
    `${words.source}: ${source}`,
    ...(link ? ['', `${words.open}: ${link}`] : []),
    '',
    '-- Mimamori',
    words.footer,
  ].join('\n');
  const facts = [
    [words.company, company],
    [words.title, notice.title],
    [words.publishedAt, when],
    [words.source, source],
  ]
    .map(
      ([name, value]) =>
        `<tr><td style="padding:4px 12px 4px 0;color:${BRAND.muted};white-space:nowrap;vertical-align:top">${escapeHtml(name ?? '')}</td><td style="padding:4px 0">${escapeHtml(value ?? '')}</td></tr>`,
    )
    .join('');
  const body = [
    `<p style="margin:0 0 16px;font-size:18px;font-weight:bold">${escapeHtml(words.intro)}</p>`,
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="font-size:14px">${facts}</table>`,
    link ? mailButton(link, words.open) : '',
  ].join('\n');
  return {
    subject,
    text,
    html: brandedMail({
      lang: notice.lang,
      title: subject,
      preheader: `${company} — ${when}`,
      body,
      footer: words.footer,
    }),
  };
}

const cut = (text: string, limit: number) => (text.length <= limit ? text : `${text.slice(0, limit - 1)}…`);

/** One embed: the title linking to the document, the company, the time and the source as fields. */
export function filingDiscordMessage(notice: FilingNotice): DiscordMessage {
  const words = FILING_WORDS[notice.lang];
  const link = safeLink(notice.documentUrl);
  return {
    payload: {
      username: 'Mimamori',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          // Discord's embed limits: title 256, field value 1,024.
          title: cut(notice.title || companyLine(notice), 256),
          ...(link ? { url: link } : {}),
          description: words.intro,
          color: 0x0f766e,
          timestamp: notice.publishedAt.toISOString(),
          fields: [
            { name: words.company, value: cut(companyLine(notice), 1024) },
            { name: words.publishedAt, value: writtenTime(notice.publishedAt, notice.timezone, notice.lang) },
            { name: words.source, value: SOURCE_NAMES[notice.source] ?? notice.source, inline: true },
            ...(link ? [{ name: words.open, value: cut(link, 1024) }] : []),
          ],
        },
      ],
      attachments: [],
    },
    files: [],
  };
}
