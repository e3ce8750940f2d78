import type { AreaDiff, DiffRow } from './area-diff.ts';

/**
 * The diff as plain text for e-mail and chat: '+ ' added lines, '- ' removed lines, '  ' context, and
 * '…' where unchanged lines are left out. Only highlighted sides get a mark, so a line that only moved
 * or a removal in add-only mode never reads as a change.
 */
export function formatDiffText(diff: AreaDiff, contextLines = 2): string {
  const near = new Set<number>();
  diff.rows.forEach((row, index) => {
    if (!row.changed) return;
    for (let k = index - contextLines; k <= index + contextLines; k++) near.add(k);
  });
  const lines: string[] = [];
  let skipped = false;
  diff.rows.forEach((row, index) => {
    if (!near.has(index)) {
      skipped = true;
      return;
    }
    if (skipped && lines.length > 0) lines.push('…');
    skipped = false;
    lines.push(...rowLines(row));
  });
  return lines.join('\n');
}

function rowLines(row: DiffRow): string[] {
  const oldText = row.old?.segments.map((segment) => segment.text).join('') ?? '';
  const newText = row.new?.segments.map((segment) => segment.text).join('') ?? '';
  const oldChanged = row.old?.segments.some((segment) => segment.changed) ?? false;
  const newChanged = row.new?.segments.some((segment) => segment.changed) ?? false;
  const lines: string[] = [];
  if (oldChanged) lines.push(`- ${oldText}`);
  if (newChanged) lines.push(`+ ${newText}`);
  else if (row.new) lines.push(`  ${newText}`);
  return lines;
}
