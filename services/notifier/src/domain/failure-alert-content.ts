import { escapeHtml } from '@mimamori/mail/html-escape';
import type { FailureKind } from '@mimamori/watch-engine';
import type { DiscordMessage } from './discord-message.ts';
import { BRAND, brandedMail, mailButton } from './mail-layout.ts';
import { UPDATE_WORDS } from './update-wording.ts';
import { writtenTime } from './written-time.ts';

/** What a failure alert, its "working again" message or a silence alert is about. */
export interface FailureNotice {
  lang: 'ja' | 'en';
  timezone: string;
  label: string;
  url: string;
  historyUrl: string;
  /** The alert: what failed, how often in a row, since when. Absent for "working again". */
  failure?: { kind: FailureKind; areaId: string; areaName: string; count: number; since: Date };
  /** "Working again": since when it had failed. */
  recovered?: { since: Date; at: Date };
  /** The silence alert (docs/product.md#silence-alerts): no update for `days` days, since `since`. */
  silent?: { days: number; since: Date };
}

/** What failed, in the user's words (docs/product.md#failure-alerts). */
const KIND_WORDS: Record<FailureKind, { ja: (area: string) => string; en: (area: string) => string }> = {
  blocked: {
    ja: () => 'サイト側にアクセスを拒否されました',
    en: () => 'the site blocked our access',
  },
  unreachable: {
    ja: () => 'サイトに接続できませんでした',
    en: () => 'the site could not be reached',
  },
  element_not_found: {
    ja: (area) =>
      area
        ? `監視範囲「${area}」が見つかりませんでした（セレクタまたは XPath をご確認ください）`
        : '監視範囲が見つかりませんでした（セレクタまたは XPath をご確認ください）',
    en: (area) =>
      area
        ? `the area “${area}” was not found on the page (check its selector or XPath)`
        : 'an area was not found on the page (check its selector or XPath)',
  },
  login_failed: {
    ja: () => 'ログインに失敗しました（ログイン設定をご確認ください）',
    en: () => 'signing in failed (check the login settings)',
  },
  timeout: {
    ja: () => 'アクセスがタイムアウトしました',
    en: () => 'the page took too long to answer (timeout)',
  },
};

/** The words of one kind of failure, for the alert and the screens' wording tests. */
export function failureWords(kind: FailureKind, areaName: string, lang: 'ja' | 'en'): string {
  return KIND_WORDS[kind][lang](areaName);
}

export function failureLines(notice: FailureNotice): { subject: string; body: string[] } {
  const { lang, label, failure, recovered, silent } = notice;
  if (silent) {
    const since = writtenTime(silent.since, notice.timezone, lang);
    return lang === 'en'
      ? {
          subject: `Mimamori: “${label}” has not changed for ${silent.days} ${silent.days === 1 ? 'day' : 'days'}`,
          body: [
            `“${label}” has not changed since ${since}, ${silent.days} ${silent.days === 1 ? 'day' : 'days'} ago; its checks keep working.`,
            'You will be told again only after the next change and another quiet spell as long.',
          ],
        }
      : {
          subject: `【Mimamori】「${label}」は${silent.days}日間変更がありません`,
          body: [
            `「${label}」は${since}から${silent.days}日間変更がありません。確認は正常に続いています。`,
            '次に変更があり、再び同じ日数変更がなかったときにお知らせします。',
          ],
        };
  }
  if (failure) {
    const what = failureWords(failure.kind, failure.areaName, lang);
    const since = writtenTime(failure.since, notice.timezone, lang);
    return lang === 'en'
      ? {
          subject: `Mimamori: checks of “${label}” are failing`,
          body: [
            `The last ${failure.count} checks of “${label}” failed: ${what}.`,
            `Failing since ${since}. The page may have changed; its areas, login or actions may need a look.`,
            'Monitoring continues. You will not be told again while it stays broken, and you will hear once when it works again.',
          ],
        }
      : {
          subject: `【Mimamori】「${label}」の確認が失敗しています`,
          body: [
            `「${label}」の確認が ${failure.count} 回続けて失敗しました: ${what}。`,
            `${since}から失敗しています。ページの構造が変わった可能性があります。監視範囲、ログイン、アクションの設定をご確認ください。`,
            '監視は続けています。失敗が続く間は再度お知らせしません。復旧したときに一度だけお知らせします。',
          ],
        };
  }
  const since = recovered ? writtenTime(recovered.since, notice.timezone, lang) : '';
  const at = recovered ? writtenTime(recovered.at, notice.timezone, lang) : '';
  return lang === 'en'
    ? {
        subject: `Mimamori: “${label}” is working again`,
        body: [`Checks of “${label}” work again as of ${at}; they had failed since ${since}.`],
      }
    : {
        subject: `【Mimamori】「${label}」の確認が復旧しました`,
        body: [`「${label}」の確認が${at}に復旧しました。${since}から失敗していました。`],
      };
}

/**
 * The alert or "working again" e-mail, text and HTML: the branded layout every mail of the product
 * has, with the site's address and a button to its history.
 */
export function failureMailContent(notice: FailureNotice): { subject: string; text: string; html: string } {
  const { subject, body } = failureLines(notice);
  const words = UPDATE_WORDS[notice.lang];
  const text = [
    ...body,
    '',
    notice.url,
    ...(notice.historyUrl ? [notice.historyUrl] : []),
    '',
    '-- Mimamori',
  ].join('\n');
  const html = brandedMail({
    lang: notice.lang,
    title: subject,
    preheader: body[0] ?? subject,
    body: [
      ...body.map((line) => `<p style="margin:0 0 12px">${escapeHtml(line)}</p>`),
      `<p style="margin:0 0 12px;word-break:break-all"><a href="${escapeHtml(notice.url)}" style="color:${BRAND.accent}">${escapeHtml(notice.url)}</a></p>`,
      notice.historyUrl ? mailButton(notice.historyUrl, words.history) : '',
    ].join('\n'),
    footer: words.footer,
  });
  return { subject, text, html };
}

/** The alert or "working again" Discord message: one embed, red for failing, teal for working. */
export function failureDiscordMessage(notice: FailureNotice): DiscordMessage {
  const { subject, body } = failureLines(notice);
  const link = notice.historyUrl || notice.url;
  return {
    payload: {
      username: 'Mimamori',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: subject.slice(0, 256),
          ...(/^https?:\/\//.test(link) ? { url: link } : {}),
          description: body.join('\n').slice(0, 4096),
          // Red for a failing site, amber for a silent one; the product's teal (web/src/styles.css
          // --color-accent) when it works.
          color: notice.failure ? 0xb91c1c : notice.silent ? 0xb45309 : 0x0f766e,
          timestamp: (
            notice.recovered?.at ??
            notice.failure?.since ??
            notice.silent?.since ??
            new Date()
          ).toISOString(),
          fields: [],
        },
      ],
      attachments: [],
    },
    files: [],
  };
}
