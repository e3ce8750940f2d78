import type { AreaDiff, DiffRow, DiffSide } from '../diff/area-diff.ts';
import { firstNumber } from '../first-number.ts';

/**
 * One line that says what happened in an update, in the reader's language (docs/product.md#summary):
 * a stock word that changed, a number that changed with its percentage, items added or removed, or
 * text replaced, in that order of weight. Deterministic: the same diff gives the same line.
 */
export type SummaryLang = 'ja' | 'en';

export interface SummaryArea {
  /** The area's name as shown elsewhere (its label, or "Area 2"); used only when several areas changed. */
  readonly name: string;
  readonly diff: AreaDiff;
}

/** The update's line from its areas' diffs. */
export function summariseUpdate(areas: readonly SummaryArea[], lang: SummaryLang): string {
  return updateSummary(
    areas.map((area) => ({ name: area.name, line: summariseArea(area.diff, lang) ?? '' })),
    lang,
  );
}

/**
 * The update's line from its areas' lines (as events and history carry them): the first changed
 * area's line, with its name and how many more when several changed.
 */
export function updateSummary(
  areas: ReadonlyArray<{ name: string; line: string }>,
  lang: SummaryLang,
): string {
  const [first, ...rest] = areas.filter((area) => area.line !== '');
  if (!first) return WORDS[lang].changed;
  if (rest.length === 0) return first.line;
  return `${first.name}: ${first.line}${WORDS[lang].moreAreas(rest.length)}`;
}

/** One area's line; null when the diff highlights nothing. */
export function summariseArea(diff: AreaDiff, lang: SummaryLang): string | null {
  const changed = diff.rows.filter((row) => row.changed);
  if (changed.length === 0) return null;
  const words = WORDS[lang];
  const stock = stockChange(changed, lang);
  if (stock) return stock;

  const added = changed.filter((row) => row.kind === 'added').map((row) => sideText(row.new));
  const removed = changed.filter((row) => row.kind === 'removed').map((row) => sideText(row.old));
  const modified = changed.filter((row) => row.kind === 'modified');
  // One line taken out and one put in, too unlike to be paired word by word, is still a replacement.
  const [onlyAdded] = added;
  const [onlyRemoved] = removed;
  const replacedLine =
    modified.length === 0 && added.length === 1 && removed.length === 1 && onlyAdded && onlyRemoved
      ? lineReplacement(onlyRemoved, onlyAdded)
      : null;
  const pieces = replacedLine ? [replacedLine] : modified.flatMap(piecesOf);
  // Every piece and every line added or removed alone is one change; the line names one of them.
  const more = words.more(replacedLine ? 0 : pieces.length + added.length + removed.length - 1);
  const numeric = pieces.find((piece) => piece.number !== null);
  if (numeric?.number) return `${formatNumberChange(numeric.number, lang)}${more}`;
  const [first] = pieces;
  if (first) return `${words.replaced(cut(first.before), cut(first.after))}${more}`;
  return words.items(added, removed);
}

/** One changed piece of a line: its text on each side and, when both are numbers, the change. */
interface Piece {
  before: string;
  after: string;
  number: NumberChange | null;
}

/** A highlighted run of one side with the text around it on its line. */
interface Run {
  lead: string;
  text: string;
  tail: string;
}

interface NumberChange {
  before: string;
  after: string;
  from: number;
  to: number;
}

/**
 * A modified line's changed pieces: each highlighted run paired with the other side's run in order
 * when both sides have as many; else the whole span from the first highlighted run to the last.
 */
function piecesOf(row: DiffRow): Piece[] {
  const olds = runs(row.old);
  const news = runs(row.new);
  // 11月21日 → 12月5日 highlights two numbers; the date reads whole.
  const inDate = [...olds, ...news].some((run) => DATE_UNIT.test(run.tail));
  if (olds.length === news.length && olds.length > 0 && !inDate) {
    return olds.map((run, index) => piece(run, news[index] as Run));
  }
  return [piece(span(row.old), span(row.new))];
}

function runs(side: DiffSide | null): Run[] {
  if (!side) return [];
  const texts = side.segments.map((segment) => segment.text);
  return side.segments.flatMap((segment, index) =>
    segment.changed
      ? [{ lead: texts.slice(0, index).join(''), text: segment.text, tail: texts.slice(index + 1).join('') }]
      : [],
  );
}

/** From the first highlighted run of a side to its last, unchanged text between them included. */
function span(side: DiffSide | null): Run {
  const all = runs(side);
  const [first] = all;
  const last = all.at(-1);
  if (!side || !first || !last) return { lead: '', text: '', tail: '' };
  const line = sideText(side);
  const start = first.lead.length;
  const end = line.length - last.tail.length;
  return { lead: line.slice(0, start), text: line.slice(start, end), tail: line.slice(end) };
}

/** A removed line and the added one that took its place, without what they share at each end. */
function lineReplacement(before: string, after: string): Piece {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  // Back to the start of a word, so a shared prefix never cuts one in two.
  while (start > 0 && !BOUNDARY.test(before[start - 1] ?? '')) start--;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end++;
  while (end > 0 && !BOUNDARY.test(before[before.length - end] ?? '')) end--;
  return piece(
    {
      lead: before.slice(0, start),
      text: before.slice(start, before.length - end),
      tail: before.slice(before.length - end),
    },
    {
      lead: after.slice(0, start),
      text: after.slice(start, after.length - end),
      tail: after.slice(after.length - end),
    },
  );
}

const BOUNDARY = /[\s:：、。,.・/()（）「」]/u;

function piece(beforeRun: Run, afterRun: Run): Piece {
  const before = markInLead(beforeRun);
  const after = markInLead(afterRun);
  const number = numberChange(before, after) ?? numberChange(leadingNumber(before), leadingNumber(after));
  return { before: withUnit(before).trim(), after: withUnit(after).trim(), number };
}

const CURRENCY_BEFORE = /(?:[-−－▲△]|(?:[¥￥$＄€£]|USD|JPY|US\$)[ \u3000]?)$/u;
const UNIT_AFTER =
  /^(?:[ \u3000]?(?:[十百千万億兆]*円|ドル|件|個|点|人|名|台|本|枚|冊|回|%|％|pt|ポイント|位|年|月|日|時|分|秒|yen|items?|pcs|points?)(?![A-Za-z]))?(?:[(（](?:税込|税抜|tax incl\.?|incl\. tax)[)）])?/iu;
const LEADING_MARK = /^(?:[¥￥$＄€£]|USD|JPY|US\$)[ \u3000]?/u;
const DATE_UNIT = /^[ \u3000]?[年月日時分秒]/u;
// One decimal point at most: 2.4.1 is a version, not a quantity.
const NUMERIC = /^[-−－▲△+]?[\d０-９][\d０-９,，]*(?:[.．][\d０-９]+)?$/u;
const LEADING_NUMBER = /^[-−－▲△+]?[\d０-９][\d０-９,，]*(?:[.．][\d０-９]+)?(?![.．]?[\d０-９])/u;
// A rank or a place in a line: its change in per cent means nothing.
const ORDINAL_UNIT = /[位番]$/u;

/** "¥980" highlighted whole: the mark moves to the text before it, so the run is a number. */
function markInLead(run: Run): Run {
  const mark = LEADING_MARK.exec(run.text);
  if (!mark?.[0] || !LEADING_NUMBER.test(run.text.slice(mark[0].length))) return run;
  return { lead: run.lead + mark[0], text: run.text.slice(mark[0].length), tail: run.tail };
}

/**
 * "980 sale" where "1,200" was: the number the run starts with, the words after it moved to its
 * tail, so a price that gained a word still reads as a price change.
 */
function leadingNumber(run: Run): Run {
  const number = LEADING_NUMBER.exec(run.text)?.[0];
  if (!number || !/^[\s\u3000]/u.test(run.text.slice(number.length))) return run;
  return { lead: run.lead, text: number, tail: run.text.slice(number.length) + run.tail };
}

/** A run with the marks that belong to the number it starts or ends with: ¥ or ▲ before, 円 or 日 after. */
function withUnit(run: Run): string {
  const text = run.text.trim();
  const mark = /^[\d０-９]/u.test(text) ? (CURRENCY_BEFORE.exec(run.lead)?.[0] ?? '') : '';
  const unit = /[\d０-９]$/u.test(text) ? (UNIT_AFTER.exec(run.tail)?.[0] ?? '') : '';
  return `${mark}${text}${unit}`;
}

/** Both runs are one number each, not a part of a date or time: the change, with the marks as written. */
function numberChange(before: Run, after: Run): NumberChange | null {
  if (!NUMERIC.test(before.text.trim()) || !NUMERIC.test(after.text.trim())) return null;
  if (DATE_UNIT.test(before.tail) || DATE_UNIT.test(after.tail)) return null;
  const beforeText = withUnit(before).trim();
  const afterText = withUnit(after).trim();
  const from = firstNumber(beforeText);
  const to = firstNumber(afterText);
  if (from === null || to === null || from === to) return null;
  return { before: beforeText, after: afterText, from, to };
}

function formatNumberChange(change: NumberChange, lang: SummaryLang): string {
  const arrow = `${change.before} → ${change.after}`;
  if (change.from === 0 || ORDINAL_UNIT.test(change.after)) return arrow;
  const percent = ((change.to - change.from) / Math.abs(change.from)) * 100;
  const rounded = Math.abs(percent) < 1 ? Math.round(percent * 10) / 10 : Math.round(percent);
  const signed = `${rounded > 0 ? '+' : '−'}${Math.abs(rounded)}`;
  return lang === 'ja' ? `${arrow}（${signed}%）` : `${arrow} (${signed} %)`;
}

/** Words a shop uses for stock, each with the state it means. */
const STOCK_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/在庫あり|在庫有り|在庫有|販売中|購入可能|入荷しました|再入荷/u, 'in'],
  [/残りわずか|残り僅か|在庫僅少|残り\s*\d+\s*点/u, 'low'],
  [/売り切れ|売切れ|品切れ|在庫切れ|在庫なし|完売|販売終了|入荷待ち/u, 'out'],
  [/予約受付中|予約販売|予約注文/u, 'preorder'],
  [/\b(?:in stock|available now|back in stock)\b/iu, 'in'],
  [/\b(?:low stock|only \d+ left|few left)\b/iu, 'low'],
  [/\b(?:sold out|out of stock|unavailable|discontinued)\b/iu, 'out'],
  [/\b(?:pre-?order)\b/iu, 'preorder'],
];

function stockWord(text: string): { word: string; state: string } | null {
  let found: { word: string; state: string; at: number } | null = null;
  for (const [pattern, state] of STOCK_WORDS) {
    const match = pattern.exec(text);
    if (match && (!found || match.index < found.at)) found = { word: match[0], state, at: match.index };
  }
  return found && { word: found.word, state: found.state };
}

/** "在庫あり → 売り切れ" when the highlighted text on the two sides names two different stock states. */
function stockChange(rows: readonly DiffRow[], lang: SummaryLang): string | null {
  // Whole lines: "Out of stock" → "Back in stock" highlights only the words before "stock".
  const oldText = rows.map((row) => sideText(row.old)).join('\n');
  const newText = rows.map((row) => sideText(row.new)).join('\n');
  const before = stockWord(oldText);
  const after = stockWord(newText);
  if (after && (!before || before.state !== after.state)) {
    return before ? `${before.word} → ${after.word}` : WORDS[lang].nowShows(after.word);
  }
  return null;
}

function sideText(side: DiffSide | null): string {
  return side
    ? side.segments
        .map((segment) => segment.text)
        .join('')
        .trim()
    : '';
}

const MAX_QUOTED = 30;

/** A quoted piece of text cut to fit the line, whole characters (a surrogate pair is never split). */
function cut(text: string): string {
  const characters = [...text.replace(/\s+/gu, ' ').trim()];
  return characters.length <= MAX_QUOTED
    ? characters.join('')
    : `${characters.slice(0, MAX_QUOTED - 1).join('')}…`;
}

const SHOWN_ITEMS = 2;

const WORDS = {
  ja: {
    changed: '内容が変わりました',
    more: (count: number) => (count > 0 ? `、ほか ${count} 件の変更` : ''),
    moreAreas: (count: number) => `（ほか ${count} 範囲）`,
    replaced: (before: string, after: string) =>
      before ? `「${before}」→「${after}」` : `「${after}」が表示されました`,
    nowShows: (word: string) => `「${word}」と表示されました`,
    items(added: readonly string[], removed: readonly string[]): string {
      const list = (items: readonly string[]) =>
        items
          .slice(0, SHOWN_ITEMS)
          .map((item) => `「${cut(item)}」`)
          .join('') + (items.length > SHOWN_ITEMS ? ' ほか' : '');
      if (added.length > 0 && removed.length > 0) {
        return `${added.length} 件追加・${removed.length} 件削除: ${list(added)}`;
      }
      if (added.length > 0) return `${added.length} 件追加: ${list(added)}`;
      return `${removed.length} 件削除: ${list(removed)}`;
    },
  },
  en: {
    changed: 'The content changed',
    more: (count: number) => (count > 0 ? ` and ${count} more ${count === 1 ? 'change' : 'changes'}` : ''),
    moreAreas: (count: number) => ` (+${count} more ${count === 1 ? 'area' : 'areas'})`,
    replaced: (before: string, after: string) =>
      before ? `“${before}” → “${after}”` : `Now shows “${after}”`,
    nowShows: (word: string) => `Now shows “${word}”`,
    items(added: readonly string[], removed: readonly string[]): string {
      const list = (items: readonly string[]) =>
        items
          .slice(0, SHOWN_ITEMS)
          .map((item) => `“${cut(item)}”`)
          .join(', ') + (items.length > SHOWN_ITEMS ? ` and ${items.length - SHOWN_ITEMS} more` : '');
      if (added.length > 0 && removed.length > 0) {
        return `${added.length} added, ${removed.length} removed: ${list(added)}`;
      }
      if (added.length > 0) return `${added.length} added: ${list(added)}`;
      return `${removed.length} removed: ${list(removed)}`;
    },
  },
} as const;
