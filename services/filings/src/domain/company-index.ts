import { MIN_QUERY_LENGTH } from './search-key.ts';

export interface IndexedCompany<Company> {
  company: Company;
  /** Every folded name and code the company is found by (searchKey already applied). */
  keys: readonly string[];
}

/**
 * Infix search over folded names and codes in memory. Queries have at least three characters,
 * so every match contains the query's trigrams: the rarest trigram's list of companies gives
 * the candidates and only those are compared in full, instead of every company. Codes that
 * equal the query come first, then prefix matches, then the rest, each in directory order.
 */
export class CompanyIndex<Company> {
  private readonly entries: IndexedCompany<Company>[];
  private readonly byTrigram = new Map<string, number[]>();

  constructor(entries: readonly IndexedCompany<Company>[]) {
    this.entries = [...entries];
    this.entries.forEach((entry, position) => {
      const trigrams = new Set<string>();
      for (const key of entry.keys) for (const trigram of trigramsOf(key)) trigrams.add(trigram);
      for (const trigram of trigrams) {
        const list = this.byTrigram.get(trigram);
        if (list) list.push(position);
        else this.byTrigram.set(trigram, [position]);
      }
    });
  }

  get size(): number {
    return this.entries.length;
  }

  /** Companies whose names or codes contain `query` (already folded, at least 3 characters). */
  search(query: string, limit: number): Company[] {
    const chars = [...query];
    if (chars.length < MIN_QUERY_LENGTH) return [];
    let candidates: number[] | undefined;
    for (const trigram of trigramsOf(query)) {
      const list = this.byTrigram.get(trigram) ?? [];
      if (!candidates || list.length < candidates.length) candidates = list;
      if (list.length === 0) return [];
    }
    const ranked: [number, number][] = [];
    for (const position of candidates ?? []) {
      const entry = this.entries[position];
      if (!entry) continue;
      let rank = 3;
      for (const key of entry.keys) {
        if (key === query) rank = Math.min(rank, 0);
        else if (key.startsWith(query)) rank = Math.min(rank, 1);
        else if (key.includes(query)) rank = Math.min(rank, 2);
      }
      if (rank < 3) ranked.push([rank, position]);
    }
    ranked.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return ranked
      .slice(0, limit)
      .map(([, position]) => (this.entries[position] as IndexedCompany<Company>).company);
  }
}

function trigramsOf(key: string): string[] {
  const chars = [...key];
  const trigrams: string[] = [];
  for (let i = 0; i + MIN_QUERY_LENGTH <= chars.length; i++) trigrams.push(chars.slice(i, i + 3).join(''));
  return trigrams;
}
