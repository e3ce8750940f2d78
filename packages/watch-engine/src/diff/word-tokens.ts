// Japanese has no spaces between words, so a run of one script stands for a word: kanji compounds,
// hiragana, katakana (with the long-vowel mark). Numbers keep their separators so '1,234' is one token.
// A fixed rule rather than Intl.Segmenter keeps results identical across Node and ICU versions.
const TOKEN =
  /[\p{sc=Han}々〆ヶ]+|[\p{sc=Hiragana}ー]+|[\p{sc=Katakana}ー]+|[0-9０-９]+(?:[.,．，][0-9０-９]+)*|[[\p{L}\p{N}\p{M}_]--[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]]+|\s+|./gsv;

/** A line split into words, runs of whitespace and single other characters; joined back they give the line. */
export function wordTokens(line: string): string[] {
  return line.match(TOKEN) ?? [];
}

export function isBlank(text: string): boolean {
  return !/\S/u.test(text);
}
