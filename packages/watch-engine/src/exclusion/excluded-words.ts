import { foldWidth } from '../normalise/fold-width.ts';

/**
 * One regex that removes every listed word from width-folded text (see foldWidth), ignoring case. A
 * word that begins or ends with a Latin letter or digit only matches as a whole word there ('sale'
 * leaves 'wholesale' alone); Japanese has no spaces between words, so other characters match anywhere.
 */
export function excludedWordsPattern(words: readonly string[]): RegExp | undefined {
  const distinct = [
    ...new Set(
      words.map((word) => foldWidth(word).replace(/\s+/gu, ' ').trim()).filter((word) => word.length > 0),
    ),
  ];
  if (distinct.length === 0) return undefined;
  // Longest first, so that 'sale price' is removed whole rather than leaving ' price'.
  distinct.sort((a, b) => b.length - a.length);
  const alternatives = distinct.map((word) => {
    const before = /^[A-Za-z0-9]/.test(word) ? '(?<![A-Za-z0-9])' : '';
    const after = /[A-Za-z0-9]$/.test(word) ? '(?![A-Za-z0-9])' : '';
    return `${before}${escapeRegex(word)}${after}`;
  });
  return new RegExp(alternatives.join('|'), 'gi');
}

function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
