import { updateSummary } from '@mimamori/watch-engine';
import type { UpdateNotice } from './update-notice.ts';

const OPERANDS = {
  ja: { all: '全体', new: '追加部分', old: '削除部分' },
  en: { all: 'whole text', new: 'added text', old: 'removed text' },
} as const;

const OPERATORS = {
  ja: {
    keyword: 'キーワードを含む',
    not_keyword: 'キーワードを含まない',
    greater: 'より大きい',
    less: 'より小さい',
    increase: '増加',
    decrease: '減少',
    increase_percent: '%以上増加',
    decrease_percent: '%以上減少',
    re: '正規表現に一致',
    not_re: '正規表現に一致しない',
  },
  en: {
    keyword: 'contains',
    not_keyword: 'does not contain',
    greater: 'greater than',
    less: 'less than',
    increase: 'increased by',
    decrease: 'decreased by',
    increase_percent: 'increased by % at least',
    decrease_percent: 'decreased by % at least',
    re: 'matches',
    not_re: 'does not match',
  },
} as const;

/** The words every channel uses for an update, in the reader's language. */
export const UPDATE_WORDS = {
  ja: {
    subject: (label: string, summary: string) => `【Mimamori】${summary}｜${label}`,
    intro: '監視中のサイトに更新がありました。',
    site: 'サイト',
    detectedAt: '検知日時',
    changes: '変更内容',
    /** An area the person did not name: a v1 site's whole page, or an area saved without one. */
    area: (id: string) => (id === 'page' ? 'ページ全体' : `監視範囲 ${id}`),
    rules: '一致した通知条件',
    noRules: '（通知条件なし: すべての更新を通知）',
    screenshots: '変更前と変更後のスクリーンショットを添付しています。',
    history: '履歴を見る',
    historyLead: '変更の前後や過去の更新は履歴ページで確認できます。',
    footer:
      'このメールは Mimamori の監視設定に基づいて送信しています。通知の設定はサイトの編集画面で変更できます。',
    before: '変更前',
    after: '変更後',
    trimmed: (shown: number, total: number) =>
      `…（${total} 文字中 ${shown} 文字を表示。全文は履歴で確認できます）`,
  },
  en: {
    subject: (label: string, summary: string) => `Mimamori: ${summary} | ${label}`,
    intro: 'A site you monitor has been updated.',
    site: 'Site',
    detectedAt: 'Detected at',
    changes: 'What changed',
    area: (id: string) => (id === 'page' ? 'Whole page' : `Area ${id}`),
    rules: 'Matched rules',
    noRules: '(no rules: every update is announced)',
    screenshots: 'Before and after screenshots are attached.',
    history: 'Open the history',
    historyLead: 'The history page shows this update beside the earlier ones.',
    footer:
      'You receive this mail because of your Mimamori monitoring settings. Change the notifications on the site’s edit screen.',
    before: 'Before',
    after: 'After',
    trimmed: (shown: number, total: number) =>
      `… (${shown} of ${total} characters shown; the history has the whole diff)`,
  },
} as const;

/** An area's name as the person gave it, else a name from its id. */
export function areaName(area: { areaId: string; label: string }, lang: 'ja' | 'en'): string {
  return area.label || UPDATE_WORDS[lang].area(area.areaId);
}

/** "group 1 / condition 2: area price — added text contains セール". */
export function matchedRuleLines(notice: Pick<UpdateNotice, 'lang' | 'matched' | 'areaLabels'>): string[] {
  const { lang } = notice;
  return notice.matched.map((rule) => {
    const operand = OPERANDS[lang][rule.operand as keyof (typeof OPERANDS)['ja']] ?? rule.operand;
    const operator = OPERATORS[lang][rule.operator as keyof (typeof OPERATORS)['ja']] ?? rule.operator;
    const where =
      lang === 'ja'
        ? `グループ${rule.groupIndex + 1} 条件${rule.conditionIndex + 1}`
        : `group ${rule.groupIndex + 1} condition ${rule.conditionIndex + 1}`;
    const area = areaName({ areaId: rule.areaId, label: notice.areaLabels[rule.areaId] ?? '' }, lang);
    return `${where}: ${area} — ${operand} ${operator} ${rule.value}`.trim();
  });
}

/**
 * The update's line from its areas' lines as the event carries them in both languages: the
 * first changed area's, with its name and a count when several changed (docs/product.md#summary).
 */
export function noticeSummary(
  areas: ReadonlyArray<{ areaId: string; label: string; summaryJa: string; summaryEn: string }>,
  lang: 'ja' | 'en',
): string {
  return updateSummary(
    areas.map((area) => ({
      name: areaName(area, lang),
      line: lang === 'ja' ? area.summaryJa : area.summaryEn,
    })),
    lang,
  );
}
