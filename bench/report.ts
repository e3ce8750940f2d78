/** Prints figures as a readable table, then (last line) one JSON object with the figures. */
export function report(
  title: string,
  rows: Record<string, string | number>[],
  figures: Record<string, unknown>,
) {
  console.log(`\n${title}\n`);
  console.table(rows);
  console.log(JSON.stringify(figures));
}

/** The value below which `p` (0..1) of the sorted samples fall. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1);
  return sorted[Math.max(0, index)] as number;
}
