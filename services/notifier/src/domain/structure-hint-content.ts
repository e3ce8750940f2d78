import { escapeHtml } from '@mimamori/mail/html-escape';

/** The messages (docs/product.md#check-errors) for the errors a streak usually ends on, in the reader's language. */
const ERROR_WORDS: Record<string, { ja: string; en: string }> = {
  unreachable: { ja: 'サイトに接続できませんでした', en: 'could not reach the site' },
  http_status: {
    ja: 'URL にアクセスできませんでした（404 など）',
    en: 'the URL could not be reached (404 or similar)',
  },
  timeout: {
    ja: '対象の全部または一部へのアクセスがタイムアウトしました（履歴をご確認ください）',
    en: 'access timed out for all or part of the target (check the history)',
  },
  element_not_found: {
    ja: '要素が見つかりませんでした（セレクタまたは XPath をご確認ください）',
    en: 'element not found (check the selector or XPath)',
  },
  login_failed: {
    ja: 'このサイトのログインに対応できませんでした',
    en: 'login could not be supported on this site',
  },
};

/**
 * The structural-change hint (docs/product.md#check-errors): the site failed many checks in a row, which usually
 * means its pages changed shape and the areas, login or actions no longer fit.
 */
export function structureHintContent(input: {
  lang: 'ja' | 'en';
  label: string;
  url: string;
  errors: number;
  errorCode: string;
}): { subject: string; text: string; html: string } {
  const { lang, label, url, errors } = input;
  const last = ERROR_WORDS[input.errorCode]?.[lang] ?? input.errorCode;
  const lines =
    lang === 'en'
      ? [
          `The last ${errors} checks of “${label}” failed (last error: ${last}).`,
          'The site’s structure may have changed. Please check its areas (selectors or XPath), login and actions.',
          'Monitoring continues; this notice is not sent again until a check succeeds.',
        ]
      : [
          `「${label}」の確認が ${errors} 回続けてエラーになりました（最後のエラー: ${last}）。`,
          'サイトの構造が変わった可能性があります。監視範囲（セレクタや XPath）、ログイン、アクションの設定をご確認ください。',
          '監視は続けています。確認が成功するまで、このお知らせは再送されません。',
        ];
  const subject =
    lang === 'en'
      ? `Mimamori: “${label}” keeps failing — the site may have changed`
      : `【Mimamori】「${label}」でエラーが続いています（サイトの構造変更の可能性）`;
  const text = [...lines, '', url, '', '-- Mimamori'].join('\n');
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:sans-serif">${lines
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('')}<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p><p>-- Mimamori</p></body></html>`;
  return { subject, text, html };
}
