// Variation selectors pick a glyph (emoji or text style, a kanji variant) for the character before
// them: '❤️' and '❤' are the same word to a reader. Ideographic ones sit outside the BMP.
const VARIATION_SELECTOR = /[\uFE00-\uFE0F]|\uDB40[\uDD00-\uDDEF]/g;

/**
 * Text as keyword rules and exclusions compare it: compatibility forms folded (NFKC: full-width Latin
 * and digits to half-width, half-width katakana to full-width, ① to 1) and variation selectors dropped.
 * Case is kept: the comparison decides that.
 */
export function foldWidth(text: string): string {
  return text.normalize('NFKC').replace(VARIATION_SELECTOR, '');
}
