import { escapeHtml } from '@mimamori/mail/html-escape';
import type { MailAttachment } from '@mimamori/mail/mail-transport';
import { BRAND, brandedMail, MONO, mailButton, mailHeading } from './mail-layout.ts';
import { imageFileName, type UpdateNotice } from './update-notice.ts';
import { areaName, matchedRuleLines, UPDATE_WORDS } from './update-wording.ts';
import { writtenTime } from './written-time.ts';

/**
 * The update mail: text and HTML with the same content, the diffs exactly as the event carries
 * them, a button to the site's history, and the pictures both shown inline (cid) and attached.
 * The pictures must already be in a format mail programs show (mailPictures).
 */
export function updateMailContent(notice: UpdateNotice): {
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
} {
  const words = UPDATE_WORDS[notice.lang];
  const when = writtenTime(notice.detectedAt, notice.timezone, notice.lang);
  const rules = matchedRuleLines(notice);
  const ruleLines = rules.length > 0 ? rules : [words.noRules];
  const subject = words.subject(notice.label, notice.summary);
  const text = [
    notice.summary,
    '',
    words.intro,
    '',
    `${words.site}: ${notice.label}`,
    notice.url,
    `${words.detectedAt}: ${when}`,
    ...(notice.historyUrl ? ['', `${words.history}: ${notice.historyUrl}`] : []),
    '',
    `■ ${words.changes}`,
    ...notice.areas.flatMap((area) => [`[${areaName(area, notice.lang)}]`, area.diffText, '']),
    `■ ${words.rules}`,
    ...ruleLines,
    ...(notice.images.length > 0 ? ['', words.screenshots] : []),
    '',
    '-- Mimamori',
    words.footer,
  ].join('\n');

  const facts = [
    [
      words.site,
      `${escapeHtml(notice.label)}<br><a href="${escapeHtml(notice.url)}" style="color:${BRAND.accent};word-break:break-all">${escapeHtml(notice.url)}</a>`,
    ],
    [words.detectedAt, escapeHtml(when)],
  ]
    .map(
      ([name, value]) =>
        `<tr><td style="padding:4px 12px 4px 0;color:${BRAND.muted};white-space:nowrap;vertical-align:top">${escapeHtml(name ?? '')}</td><td style="padding:4px 0">${value}</td></tr>`,
    )
    .join('');
  const body = [
    `<p style="margin:0 0 4px;font-size:18px;font-weight:bold">${escapeHtml(notice.summary)}</p>`,
    `<p style="margin:0 0 16px;color:${BRAND.muted}">${escapeHtml(words.intro)}</p>`,
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="font-size:14px">${facts}</table>`,
    notice.historyUrl ? mailButton(notice.historyUrl, words.history) : '',
    mailHeading(words.changes),
    ...notice.areas.map(
      (area) =>
        `<p style="margin:12px 0 4px;font-weight:bold">${escapeHtml(areaName(area, notice.lang))}</p>${diffHtml(area.diffText)}`,
    ),
    mailHeading(words.rules),
    `<ul style="margin:0;padding-left:20px">${ruleLines.map((rule) => `<li>${escapeHtml(rule)}</li>`).join('')}</ul>`,
    ...notice.images.map(
      (image) =>
        `${mailHeading(words[image.name])}<img src="cid:${image.name}" alt="${escapeHtml(words[image.name])}" width="550" style="display:block;width:100%;max-width:550px;height:auto;border:1px solid ${BRAND.border}">`,
    ),
  ].join('\n');
  return {
    subject,
    text,
    html: brandedMail({
      lang: notice.lang,
      title: subject,
      preheader: `${notice.label} — ${when}`,
      body,
      footer: words.footer,
    }),
    attachments: notice.images.map((image) => ({
      filename: imageFileName(image),
      content: image.data,
      contentType: image.contentType,
      cid: image.name,
    })),
  };
}

const LINE_STYLES: Record<string, string> = {
  '+': 'background:#e6f4ea;color:#14532d',
  '-': 'background:#fef3f2;color:#b42318',
};

/** The diff line by line, added lines green and removed ones red. */
function diffHtml(diffText: string): string {
  const lines = diffText
    .split('\n')
    .map((line) => {
      const style = LINE_STYLES[line[0] ?? ''] ?? '';
      return `<div style="padding:1px 8px;${style}">${escapeHtml(line) || '&nbsp;'}</div>`;
    })
    .join('');
  return `<div style="font-family:${MONO};font-size:13px;line-height:1.5;white-space:pre-wrap;word-break:break-all;background:${BRAND.background};border:1px solid ${BRAND.border};border-radius:6px;padding:6px 0">${lines}</div>`;
}
