import { escapeHtml } from '@mimamori/mail/html-escape';
import type { MailAttachment } from '@mimamori/mail/mail-transport';
import { imageFileName, type UpdateNotice } from './update-notice.ts';
import { localTime, matchedRuleLines, UPDATE_WORDS } from './update-wording.ts';

/**
 * The update mail: text and HTML with the same content, the diffs exactly as the event carries
 * them, and the pictures both shown inline (cid) and attached.
 */
export function updateMailContent(notice: UpdateNotice): {
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
} {
  const words = UPDATE_WORDS[notice.lang];
  const when = localTime(notice.detectedAt, notice.timezone, notice.lang);
  const rules = matchedRuleLines(notice);
  const text = [
    words.intro,
    '',
    `${words.site}: ${notice.label}`,
    notice.url,
    `${words.detectedAt}: ${when}`,
    '',
    `■ ${words.changes}`,
    ...notice.areas.flatMap((area) => [`[${words.area(area.areaId)}]`, area.diffText, '']),
    `■ ${words.rules}`,
    ...(rules.length > 0 ? rules : [words.noRules]),
    ...(notice.images.length > 0 ? ['', words.screenshots] : []),
    '',
    '-- Mimamori',
  ].join('\n');
  const pre = 'style="white-space:pre-wrap;font-family:monospace;background:#f6f8fa;padding:8px"';
  const html = `<!doctype html><html lang="${notice.lang}"><body style="font-family:sans-serif">
<p>${escapeHtml(words.intro)}</p>
<p><b>${escapeHtml(words.site)}:</b> ${escapeHtml(notice.label)}<br><a href="${escapeHtml(notice.url)}">${escapeHtml(notice.url)}</a><br><b>${escapeHtml(words.detectedAt)}:</b> ${escapeHtml(when)}</p>
<h3>${escapeHtml(words.changes)}</h3>
${notice.areas.map((area) => `<p><b>${escapeHtml(words.area(area.areaId))}</b></p><pre ${pre}>${escapeHtml(area.diffText)}</pre>`).join('\n')}
<h3>${escapeHtml(words.rules)}</h3>
<ul>${(rules.length > 0 ? rules : [words.noRules]).map((rule) => `<li>${escapeHtml(rule)}</li>`).join('')}</ul>
${notice.images.map((image) => `<p><b>${escapeHtml(words[image.name])}</b><br><img src="cid:${image.name}" alt="${escapeHtml(words[image.name])}" style="max-width:100%"></p>`).join('\n')}
<p>-- Mimamori</p></body></html>`;
  return {
    subject: words.subject(notice.label),
    text,
    html,
    attachments: notice.images.map((image) => ({
      filename: imageFileName(image),
      content: image.data,
      contentType: image.contentType,
      cid: image.name,
    })),
  };
}
