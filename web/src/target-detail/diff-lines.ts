import type { DiffRow, DiffSegment, DiffSide } from '../api/history.ts';

/** One line of the inline view: a context line, or a removed / added one with its highlights. */
export type InlineLine = {
  mark: 'same' | 'removed' | 'added';
  oldLine: number | null;
  newLine: number | null;
  segments: DiffSegment[];
};

/** A row of the side-by-side view: what stood before on the left, what stands now on the right. */
export type SideBySideRow = {
  kind: DiffRow['kind'];
  old: DiffSide | null;
  new: DiffSide | null;
};

/** A run of unchanged lines folded away, so long areas show only the change and its surroundings. */
export type FoldedLines = { folded: number };

/** Unchanged lines kept above and below each change. */
export const CONTEXT_LINES = 2;

/**
 * A row the options do not count (a moved line, a removal in add-only mode) has `changed` false:
 * it is shown, but nothing in it is highlighted.
 */
function plain(side: DiffSide | null, highlight: boolean): DiffSide | null {
  if (!side) return null;
  return highlight
    ? side
    : { line: side.line, segments: side.segments.map(({ text }) => ({ text, changed: false })) };
}

export function sideBySideRows(rows: readonly DiffRow[]): SideBySideRow[] {
  return rows.map((row) => ({
    kind: row.kind,
    old: plain(row.old, row.changed),
    new: plain(row.new, row.changed),
  }));
}

/** The rows as one column: a changed line in place becomes its old line removed, then its new line added. */
export function inlineLines(rows: readonly DiffRow[]): InlineLine[] {
  return sideBySideRows(rows).flatMap((row): InlineLine[] => {
    const lines: InlineLine[] = [];
    if (row.kind === 'same') {
      const side = row.new ?? row.old;
      return side
        ? [
            {
              mark: 'same',
              oldLine: row.old?.line ?? null,
              newLine: row.new?.line ?? null,
              segments: side.segments,
            },
          ]
        : [];
    }
    if (row.old)
      lines.push({ mark: 'removed', oldLine: row.old.line, newLine: null, segments: row.old.segments });
    if (row.new)
      lines.push({ mark: 'added', oldLine: null, newLine: row.new.line, segments: row.new.segments });
    return lines;
  });
}

/**
 * Folds unchanged items that lie more than CONTEXT_LINES away from any change; a fold of a single
 * line is not worth its marker, so it stays shown.
 */
export function foldUnchanged<T>(items: readonly T[], isChange: (item: T) => boolean): (T | FoldedLines)[] {
  const near = items.map(() => false);
  items.forEach((item, index) => {
    if (!isChange(item)) return;
    for (
      let at = Math.max(0, index - CONTEXT_LINES);
      at <= Math.min(items.length - 1, index + CONTEXT_LINES);
      at++
    ) {
      near[at] = true;
    }
  });
  const out: (T | FoldedLines)[] = [];
  let index = 0;
  while (index < items.length) {
    if (near[index]) {
      out.push(items[index] as T);
      index++;
      continue;
    }
    let end = index;
    while (end < items.length && !near[end]) end++;
    if (end - index === 1) out.push(items[index] as T);
    else out.push({ folded: end - index });
    index = end;
  }
  return out;
}

export function isFolded(item: object): item is FoldedLines {
  return 'folded' in item;
}

/**
 * Rows from the '+ ', '- ', '  ' text the notification carried, for an update recorded without
 * rows: every line counts as changed, because the text does not say which words did.
 */
export function rowsFromDiffText(diffText: string): DiffRow[] {
  let oldLine = 0;
  let newLine = 0;
  return diffText
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line): DiffRow => {
      const text = line.slice(2);
      if (line.startsWith('- ')) {
        oldLine++;
        return {
          kind: 'removed',
          changed: true,
          old: { line: oldLine, segments: [{ text, changed: true }] },
          new: null,
        };
      }
      if (line.startsWith('+ ')) {
        newLine++;
        return {
          kind: 'added',
          changed: true,
          old: null,
          new: { line: newLine, segments: [{ text, changed: true }] },
        };
      }
      oldLine++;
      newLine++;
      const same = [{ text, changed: false }];
      return {
        kind: 'same',
        changed: false,
        old: { line: oldLine, segments: same },
        new: { line: newLine, segments: same },
      };
    });
}
