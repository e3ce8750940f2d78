import { diffArrays } from 'diff';

/** A run of equal lines, or a place where `oldCount` old lines were replaced by `newCount` new ones. */
export type LineBlock =
  | { readonly same: true; readonly oldStart: number; readonly newStart: number; readonly count: number }
  | {
      readonly same: false;
      readonly oldStart: number;
      readonly oldCount: number;
      readonly newStart: number;
      readonly newCount: number;
    };

// Myers' diff costs (old + new) x edits. Past this many edits the changed middle is shown as replaced
// whole, which is still a correct diff, so a rewritten 1 MB area cannot stall a worker.
const MAX_LINE_EDITS = 1000;

/** A line diff (Myers, via the `diff` package) with common head and tail taken off first. */
export function diffLineArrays(oldLines: readonly string[], newLines: readonly string[]): LineBlock[] {
  let head = 0;
  while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
  let tail = 0;
  while (
    tail < oldLines.length - head &&
    tail < newLines.length - head &&
    oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
  ) {
    tail++;
  }
  const oldMiddle = oldLines.slice(head, oldLines.length - tail);
  const newMiddle = newLines.slice(head, newLines.length - tail);
  const blocks: LineBlock[] = [];
  if (head > 0) blocks.push({ same: true, oldStart: 0, newStart: 0, count: head });
  blocks.push(...middleBlocks(oldMiddle, newMiddle, head));
  if (tail > 0) {
    blocks.push({
      same: true,
      oldStart: oldLines.length - tail,
      newStart: newLines.length - tail,
      count: tail,
    });
  }
  return blocks;
}

function middleBlocks(oldLines: string[], newLines: string[], offset: number): LineBlock[] {
  if (oldLines.length === 0 && newLines.length === 0) return [];
  const replaced: LineBlock[] = [
    { same: false, oldStart: offset, oldCount: oldLines.length, newStart: offset, newCount: newLines.length },
  ];
  if (oldLines.length === 0 || newLines.length === 0 || unmatchedLines(oldLines, newLines) > MAX_LINE_EDITS) {
    return replaced;
  }
  const changes = diffArrays(oldLines, newLines, { maxEditLength: MAX_LINE_EDITS });
  if (!changes) return replaced;
  const blocks: LineBlock[] = [];
  let oldAt = offset;
  let newAt = offset;
  for (const change of changes) {
    const count = change.value.length;
    if (!change.added && !change.removed) {
      blocks.push({ same: true, oldStart: oldAt, newStart: newAt, count });
      oldAt += count;
      newAt += count;
      continue;
    }
    const last = blocks.at(-1);
    const open =
      last && !last.same
        ? last
        : { same: false as const, oldStart: oldAt, oldCount: 0, newStart: newAt, newCount: 0 };
    if (open !== last) blocks.push(open);
    const grown = change.added
      ? { ...open, newCount: open.newCount + count }
      : { ...open, oldCount: open.oldCount + count };
    blocks[blocks.length - 1] = grown;
    if (change.added) newAt += count;
    else oldAt += count;
  }
  return blocks;
}

/** Lines on either side without a partner on the other: a lower bound of the edits Myers would need. */
function unmatchedLines(oldLines: readonly string[], newLines: readonly string[]): number {
  const balance = new Map<string, number>();
  for (const line of oldLines) balance.set(line, (balance.get(line) ?? 0) + 1);
  for (const line of newLines) balance.set(line, (balance.get(line) ?? 0) - 1);
  let unmatched = 0;
  for (const count of balance.values()) unmatched += Math.abs(count);
  return unmatched;
}
