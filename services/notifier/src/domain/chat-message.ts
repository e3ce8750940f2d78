import type { ChatImage, ChatMessage } from '@mimamori/chat/port';
import { type FailureNotice, failureLines } from './failure-alert-content.ts';
import { companyLine, FILING_WORDS, type FilingNotice, SOURCE_NAMES, safeLink } from './filing-notice.ts';
import type { UpdateNotice } from './update-notice.ts';
import { areaName, matchedRuleLines, UPDATE_WORDS } from './update-wording.ts';
import { writtenTime } from './written-time.ts';

/**
 * The platform-neutral messages every chat link gets (docs/channels.md): the same facts and words
 * as the mail and the Discord message, already in the reader's language. Each platform's adapter
 * lays them out and cuts the body to its own limit; the title and the link always stay.
 */

const CHAT_WORDS = {
  ja: {
    /** The update's one line and the site, as the mail's subject has them; a plain line without a summary. */
    update: (label: string, summary: string) =>
      summary ? `${summary}｜${label}` : `更新がありました: ${label}`,
    areas: '変更した監視範囲',
    openSite: 'サイトを開く',
  },
  en: {
    update: (label: string, summary: string) => (summary ? `${summary} | ${label}` : `Update on ${label}`),
    areas: 'Changed areas',
    openSite: 'Open the site',
  },
} as const;

/**
 * An update: its one line with the site as the title; the site, the changed areas, the time and
 * the matched rules; each area's line and diff; the history.
 */
export function updateChatMessage(notice: UpdateNotice, images: readonly ChatImage[]): ChatMessage {
  const words = UPDATE_WORDS[notice.lang];
  const rules = matchedRuleLines(notice);
  return {
    kind: 'update',
    lang: notice.lang,
    title: CHAT_WORDS[notice.lang].update(notice.label || notice.url, notice.summary),
    fields: [
      { label: words.site, value: notice.url },
      {
        label: CHAT_WORDS[notice.lang].areas,
        value: notice.areas.map((area) => areaName(area, notice.lang)).join(', '),
      },
      { label: words.detectedAt, value: writtenTime(notice.detectedAt, notice.timezone, notice.lang) },
      { label: words.rules, value: (rules.length > 0 ? rules : [words.noRules]).join(' / ') },
    ],
    body: notice.areas
      .map((area) => [areaName(area, notice.lang), area.summary, area.diffText].filter(Boolean).join('\n'))
      .join('\n\n'),
    link: notice.historyUrl ? { label: words.history, url: notice.historyUrl } : null,
    images,
  };
}

/** A failure alert, its "working again" notice or a silence alert, as the mail says it. */
export function failureChatMessage(notice: FailureNotice): ChatMessage {
  const { subject, body } = failureLines(notice);
  const link = notice.historyUrl || safeLink(notice.url);
  return {
    kind: notice.failure ? 'failure' : notice.silent ? 'silence' : 'recovery',
    lang: notice.lang,
    // The mail's subject without the mail's own 【Mimamori】 / "Mimamori: " lead.
    title: subject.replace(/^【Mimamori】|^Mimamori: /, ''),
    fields: [{ label: UPDATE_WORDS[notice.lang].site, value: notice.url }],
    body: body.join('\n'),
    link: link
      ? {
          label: notice.historyUrl ? UPDATE_WORDS[notice.lang].history : CHAT_WORDS[notice.lang].openSite,
          url: link,
        }
      : null,
    images: [],
  };
}

/** A new filing of a followed company: the company, the time and the source; the document. */
export function filingChatMessage(notice: FilingNotice): ChatMessage {
  const words = FILING_WORDS[notice.lang];
  const link = safeLink(notice.documentUrl);
  return {
    kind: 'filing',
    lang: notice.lang,
    title: notice.title || companyLine(notice),
    fields: [
      { label: words.company, value: companyLine(notice) },
      { label: words.publishedAt, value: writtenTime(notice.publishedAt, notice.timezone, notice.lang) },
      { label: words.source, value: SOURCE_NAMES[notice.source] ?? notice.source },
    ],
    body: words.intro,
    link: link ? { label: words.open, url: link } : null,
    images: [],
  };
}
