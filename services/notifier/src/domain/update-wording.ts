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
    subject: (label: string) => `【Mimamori】更新がありました: ${label}`,
    intro: '監視中のサイトに更新がありました。',
    site: 'サイト',
    detectedAt: '検知日時',
    changes: '変更内容',
    area: (id: string) => `監視範囲 ${id}`,
    rules: '一致した通知条件',
    noRules: '（通知条件なし: すべての更新を通知）',
    screenshots: '変更前と変更後のスクリーンショットを添付しています。',
    before: '変更前',
    after: '変更後',
    trimmed: (shown: number, total: number) =>
      `…（${total} 文字中 ${shown} 文字を表示。全文は履歴で確認できます）`,
  },
  en: {
    subject: (label: string) => `Mimamori: update on ${label}`,
    intro: 'A site you monitor has been updated.',
    site: 'Site',
    detectedAt: 'Detected at',
    changes: 'What changed',
    area: (id: string) => `Area ${id}`,
    rules: 'Matched rules',
    noRules: '(no rules: every update is announced)',
    screenshots: 'Before and after screenshots are attached.',
    before: 'Before',
    after: 'After',
    trimmed: (shown: number, total: number) =>
      `… (${shown} of ${total} characters shown; the history has the whole diff)`,
  },
} as const;

/** "group 1 / condition 2: area price — added text contains セール". */
export function matchedRuleLines(notice: Pick<UpdateNotice, 'lang' | 'matched'>): string[] {
  const { lang } = notice;
  return notice.matched.map((rule) => {
    const operand = OPERANDS[lang][rule.operand as keyof (typeof OPERANDS)['ja']] ?? rule.operand;
    const operator = OPERATORS[lang][rule.operator as keyof (typeof OPERATORS)['ja']] ?? rule.operator;
    const where =
      lang === 'ja'
        ? `グループ${rule.groupIndex + 1} 条件${rule.conditionIndex + 1}`
        : `group ${rule.groupIndex + 1} condition ${rule.conditionIndex + 1}`;
    return `${where}: ${UPDATE_WORDS[lang].area(rule.areaId)} — ${operand} ${operator} ${rule.value}`.trim();
  });
}

/** The detection time in the reader's zone, e.g. "2026-11-23 23:05 (Asia/Tokyo)". */
export function localTime(at: Date, timezone: string, lang: 'ja' | 'en'): string {
  const zone = knownZone(timezone) ?? (lang === 'ja' ? 'Asia/Tokyo' : 'UTC');
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} (${zone})`;
}

function knownZone(timezone: string): string | null {
  if (!timezone) return null;
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return timezone;
  } catch {
    return null;
  }
}
