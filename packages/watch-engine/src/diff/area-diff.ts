import { diffArrays } from 'diff';
import { diffLineArrays } from './line-diff.ts';
import { isBlank, wordTokens } from './word-tokens.ts';

/** A piece of a line; `changed` pieces are the highlighted added (new side) or removed (old side) text. */
export interface DiffSegment {
  readonly text: string;
  readonly changed: boolean;
}

/** One side of a row: a 1-based line number in the normalised content and the line cut into segments. */
export interface DiffSide {
  readonly line: number;
  readonly segments: readonly DiffSegment[];
}

/**
 * A row of the side-by-side view. 'same': an equal line on both sides. 'modified': a line changed in
 * place, with word-level segments. 'added' / 'removed': a line on one side only. A row with `changed`
 * false but sides that differ is a change the options do not count (a moved line or word, a removal in
 * add-only mode): it is shown as context, never highlighted.
 */
export interface DiffRow {
  readonly kind: 'same' | 'modified' | 'added' | 'removed';
  readonly changed: boolean;
  readonly old: DiffSide | null;
  readonly new: DiffSide | null;
}

/**
 * The diff a person sees for one area. `added` holds the new-side lines that carry highlighted text and
 * `removed` the old-side ones: the 'new' and 'old' operands of notification rules.
 */
export interface AreaDiff {
  readonly rows: readonly DiffRow[];
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

export interface DiffCounting {
  /** Words and lines that were only moved are not changes ('allow same words', and add-only mode). */
  readonly cancelMoves: boolean;
  /** Removed text counts as a change (false in add-only mode). */
  readonly countRemovals: boolean;
}

interface Token {
  readonly text: string;
  changed: boolean;
}

interface SideDraft {
  readonly line: number;
  readonly text: string;
  readonly tokens: Token[];
}

interface RowDraft {
  readonly kind: DiffRow['kind'];
  readonly old: SideDraft | null;
  readonly new: SideDraft | null;
}

/**
 * A changed part's row, finished once moves and removals are settled, or an equal line's row, which
 * nothing settles: it is made finished, with one segment both sides share (most rows are such, and
 * drafting them made most of a check's garbage).
 */
type Draft = RowDraft | DiffRow;

function isFinished(draft: Draft): draft is DiffRow {
  return 'changed' in draft;
}

// Word-level pairing is for display; past these sizes a changed line is shown removed and added whole.
const MAX_PAIRED_LINES = 200;
const MAX_WORD_EDITS = 100;
const MIN_PAIR_SIMILARITY = 0.3;

export const EMPTY_DIFF: AreaDiff = { rows: [], added: [], removed: [] };

export function diffArea(
  oldLines: readonly string[],
  newLines: readonly string[],
  counting: DiffCounting,
): AreaDiff {
  const blocks = diffLineArrays(oldLines, newLines);
  const moved = counting.cancelMoves ? movedLines(blocks, oldLines, newLines) : undefined;
  const drafts: Draft[] = [];
  for (const block of blocks) {
    if (block.same) {
      for (let k = 0; k < block.count; k++) {
        const segments = [{ text: newLines[block.newStart + k] as string, changed: false }];
        drafts.push({
          kind: 'same',
          changed: false,
          old: { line: block.oldStart + k + 1, segments },
          new: { line: block.newStart + k + 1, segments },
        });
      }
      continue;
    }
    const oldIndexes = range(block.oldStart, block.oldCount);
    const newIndexes = range(block.newStart, block.newCount);
    drafts.push(...changedRows(oldIndexes, newIndexes, oldLines, newLines, moved, counting.cancelMoves));
  }
  if (counting.cancelMoves) cancelMovedWords(drafts);
  if (!counting.countRemovals) {
    for (const draft of drafts) {
      if (!isFinished(draft)) for (const token of draft.old?.tokens ?? []) token.changed = false;
    }
  }
  return finish(drafts);
}

/** Lines removed in one place and added, identical, in another: pairs of old and new indexes. */
function movedLines(
  blocks: ReturnType<typeof diffLineArrays>,
  oldLines: readonly string[],
  newLines: readonly string[],
): { old: Set<number>; new: Set<number> } {
  const removedByText = new Map<string, number[]>();
  for (const block of blocks) {
    if (block.same) continue;
    for (const index of range(block.oldStart, block.oldCount)) {
      const text = oldLines[index] as string;
      const queue = removedByText.get(text);
      if (queue) queue.push(index);
      else removedByText.set(text, [index]);
    }
  }
  const moved = { old: new Set<number>(), new: new Set<number>() };
  for (const block of blocks) {
    if (block.same) continue;
    for (const index of range(block.newStart, block.newCount)) {
      const partner = removedByText.get(newLines[index] as string)?.shift();
      if (partner === undefined) continue;
      moved.old.add(partner);
      moved.new.add(index);
    }
  }
  return moved;
}

function changedRows(
  oldIndexes: number[],
  newIndexes: number[],
  oldLines: readonly string[],
  newLines: readonly string[],
  moved: { old: Set<number>; new: Set<number> } | undefined,
  tokenise: boolean,
): RowDraft[] {
  const oldCandidates = oldIndexes.filter((index) => !moved?.old.has(index));
  const newCandidates = newIndexes.filter((index) => !moved?.new.has(index));
  const pairs = new Map<number, { partner: number; old: Token[]; new: Token[] }>();
  const pairedNew = new Set<number>();
  if (Math.min(oldCandidates.length, newCandidates.length) <= MAX_PAIRED_LINES) {
    for (let k = 0; k < Math.min(oldCandidates.length, newCandidates.length); k++) {
      const oldIndex = oldCandidates[k] as number;
      const newIndex = newCandidates[k] as number;
      const words = wordDiff(oldLines[oldIndex] as string, newLines[newIndex] as string);
      if (!words) continue;
      pairs.set(oldIndex, { partner: newIndex, ...words });
      pairedNew.add(newIndex);
    }
  }
  const rows: RowDraft[] = [];
  let i = 0;
  let j = 0;
  // Pairs keep the order of both sides, so walking both lists emits every line once, in order.
  while (i < oldIndexes.length || j < newIndexes.length) {
    const oldIndex = oldIndexes[i];
    const newIndex = newIndexes[j];
    if (oldIndex !== undefined && !pairs.has(oldIndex)) {
      const text = oldLines[oldIndex] as string;
      const isMoved = moved?.old.has(oldIndex) ?? false;
      rows.push({ kind: 'removed', old: wholeLine(oldIndex, text, !isMoved, tokenise), new: null });
      i++;
    } else if (newIndex !== undefined && !pairedNew.has(newIndex)) {
      const text = newLines[newIndex] as string;
      const isMoved = moved?.new.has(newIndex) ?? false;
      rows.push({ kind: 'added', old: null, new: wholeLine(newIndex, text, !isMoved, tokenise) });
      j++;
    } else {
      const pair = pairs.get(oldIndex as number);
      if (!pair || newIndex === undefined) break;
      rows.push({
        kind: 'modified',
        old: {
          line: (oldIndex as number) + 1,
          text: oldLines[oldIndex as number] as string,
          tokens: pair.old,
        },
        new: { line: newIndex + 1, text: newLines[newIndex] as string, tokens: pair.new },
      });
      i++;
      j++;
    }
  }
  return rows;
}

/** Word-level diff of a line changed in place, or undefined when the two lines have too little in common. */
function wordDiff(oldText: string, newText: string): { old: Token[]; new: Token[] } | undefined {
  const changes = diffArrays(wordTokens(oldText), wordTokens(newText), { maxEditLength: MAX_WORD_EDITS });
  if (!changes) return undefined;
  const oldTokens: Token[] = [];
  const newTokens: Token[] = [];
  let shared = 0;
  for (const change of changes) {
    for (const text of change.value) {
      const changed = (change.added || change.removed) && !isBlank(text);
      if (!change.added) oldTokens.push({ text, changed });
      if (!change.removed) newTokens.push({ text, changed });
      if (!change.added && !change.removed && !isBlank(text)) shared += text.length;
    }
  }
  const total = visibleLength(oldText) + visibleLength(newText);
  return total > 0 && (2 * shared) / total >= MIN_PAIR_SIMILARITY
    ? { old: oldTokens, new: newTokens }
    : undefined;
}

/** Removed-or-added words that reappear on the other side (anywhere in the area) only moved. */
function cancelMovedWords(drafts: readonly Draft[]): void {
  const drafted = drafts.filter((draft): draft is RowDraft => !isFinished(draft));
  const removed = new Map<string, number>();
  for (const draft of drafted) {
    for (const token of draft.old?.tokens ?? []) {
      if (token.changed) removed.set(token.text, (removed.get(token.text) ?? 0) + 1);
    }
  }
  const cancelled = new Map<string, number>();
  for (const draft of drafted) {
    for (const token of draft.new?.tokens ?? []) {
      const available = removed.get(token.text) ?? 0;
      if (!token.changed || available === 0) continue;
      token.changed = false;
      removed.set(token.text, available - 1);
      cancelled.set(token.text, (cancelled.get(token.text) ?? 0) + 1);
    }
  }
  for (const draft of drafted) {
    for (const token of draft.old?.tokens ?? []) {
      const count = cancelled.get(token.text) ?? 0;
      if (!token.changed || count === 0) continue;
      token.changed = false;
      cancelled.set(token.text, count - 1);
    }
  }
}

function finish(drafts: readonly Draft[]): AreaDiff {
  const rows: DiffRow[] = [];
  const added: string[] = [];
  const removed: string[] = [];
  for (const draft of drafts) {
    if (isFinished(draft)) {
      rows.push(draft);
      continue;
    }
    const oldSide = draft.old && finishSide(draft.old);
    const newSide = draft.new && finishSide(draft.new);
    const oldChanged = oldSide?.segments.some((segment) => segment.changed) ?? false;
    const newChanged = newSide?.segments.some((segment) => segment.changed) ?? false;
    if (oldChanged && draft.old) removed.push(draft.old.text);
    if (newChanged && draft.new) added.push(draft.new.text);
    rows.push({ kind: draft.kind, changed: oldChanged || newChanged, old: oldSide, new: newSide });
  }
  return { rows, added, removed };
}

/** Merges tokens into segments; a space between two changed words is highlighted with them. */
function finishSide(draft: SideDraft): DiffSide {
  const segments: { text: string; changed: boolean }[] = [];
  const tokens = draft.tokens;
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k] as Token;
    const changed =
      token.changed ||
      (isBlank(token.text) && (tokens[k - 1]?.changed ?? false) && (tokens[k + 1]?.changed ?? false));
    const last = segments.at(-1);
    if (last && last.changed === changed) last.text += token.text;
    else segments.push({ text: token.text, changed });
  }
  return { line: draft.line, segments };
}

function wholeLine(index: number, text: string, changed: boolean, tokenise: boolean): SideDraft {
  if (!tokenise || !changed) return side(index, text, changed);
  return {
    line: index + 1,
    text,
    tokens: wordTokens(text).map((word) => ({ text: word, changed: !isBlank(word) })),
  };
}

function side(index: number, text: string, changed: boolean): SideDraft {
  return { line: index + 1, text, tokens: [{ text, changed: changed && !isBlank(text) }] };
}

function range(start: number, count: number): number[] {
  return Array.from({ length: count }, (_, k) => start + k);
}

function visibleLength(text: string): number {
  return text.replace(/\s+/gu, '').length;
}
