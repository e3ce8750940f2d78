import { expect, test } from 'vitest';
import { diffArea } from './area-diff.ts';
import { formatDiffText } from './format-diff-text.ts';

test('marks changed sides and leaves out far-away context', () => {
  const oldLines = ['h1', 'a', 'b', 'c', 'd', 'e', 'f'];
  const newLines = ['h1', 'a', 'b', 'c', 'd', 'e', 'f', 'g'];
  newLines[0] = 'h2';
  const diff = diffArea(oldLines, newLines, { cancelMoves: false, countRemovals: true });
  expect(formatDiffText(diff, 1)).toBe(['- h1', '+ h2', '  a', '…', '  f', '+ g'].join('\n'));
});

test('an unchanged diff formats as nothing', () => {
  expect(formatDiffText(diffArea(['a'], ['a'], { cancelMoves: false, countRemovals: true }))).toBe('');
});
