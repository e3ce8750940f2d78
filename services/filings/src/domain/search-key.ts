/** The dashboard sends a filings search only from this many characters on (docs/product.md#filings). */
export const MIN_QUERY_LENGTH = 3;

const HIRAGANA_TO_KATAKANA = 0x60;

/**
 * The form names and queries are compared in, so a search finds a company however it is typed:
 * NFKC folds full-width letters and digits to half-width and half-width katakana to full-width;
 * hiragana becomes katakana (a kana reading matches either script); case is folded; spaces and
 * the middle dot that names write differently are dropped.
 */
export function searchKey(text: string): string {
  let folded = '';
  for (const char of text.normalize('NFKC').toLowerCase()) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0x3041 && code <= 0x3096) folded += String.fromCodePoint(code + HIRAGANA_TO_KATAKANA);
    else if (!/[\s・･]/u.test(char)) folded += char;
  }
  return folded;
}

/** A query folded as names are, or undefined when it is too short to search. */
export function searchQuery(text: string): string | undefined {
  const key = searchKey(text);
  return [...key].length >= MIN_QUERY_LENGTH ? key : undefined;
}
