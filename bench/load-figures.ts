// The load bench's arithmetic, apart from its run so that tests can hold it to account: which
// version each fixture page shows over time, and quantiles from the scheduler's histogram.

const MINUTE = 60_000;
/** Each site's page changes once every ROTATION minutes: 10 % of the sites a minute. */
const ROTATION = 10;

/**
 * Pages that change on a rotation from `start` (undefined: not yet), each a tenth of the sites a
 * minute: site n's page changes at the minutes k (counted from the start) with
 * k % 10 = floor(n / stride) % 10. The bench gives sites their fetch mode by n % stride (one in five
 * is a browser site), so each mode's sites take their turns over all ten minutes as well; by
 * n % 10 alone, every browser site (n % 5 = 4) changed in minutes 4 and 9 and none in the others.
 */
export function rotatingChanges(start: () => number | undefined, stride = 1) {
  const slotOf = (n: number) => Math.floor(n / stride) % ROTATION;
  return {
    /** The version site n's page shows at `time`: 1 until its first change, then one more each change. */
    versionAt(n: number, time: number): number {
      const from = start();
      if (from === undefined || time < from) return 1;
      const minute = Math.floor((time - from) / MINUTE);
      const first = slotOf(n);
      return minute < first ? 1 : 2 + Math.floor((minute - first) / ROTATION);
    },
    /** When site n's page changed to `version` (≥ 2). */
    changedAt(n: number, version: number): number {
      return (start() ?? 0) + (slotOf(n) + ROTATION * (version - 2)) * MINUTE;
    },
  };
}

/**
 * The cumulative bucket counts of a Prometheus histogram in a /metrics text, by upper bound
 * (seconds), summed over its series or only those with the label `only` (e.g. `mode="browser"`).
 */
export function histogramBuckets(metricsText: string, name: string, only = ''): Map<number, number> {
  const buckets = new Map<number, number>();
  const line = new RegExp(`^${name}_bucket\\{[^}]*le="([^"]+)"[^}]*\\} (\\S+)$`, 'gm');
  for (const match of metricsText.matchAll(line)) {
    if (!match[0].includes(only)) continue;
    const bound = match[1] === '+Inf' ? Number.POSITIVE_INFINITY : Number(match[1]);
    buckets.set(bound, (buckets.get(bound) ?? 0) + Number(match[2]));
  }
  return buckets;
}

/**
 * Quantile `q` (0..1) of what was observed between two reads of a histogram, in ms, interpolated
 * linearly within its bucket; Infinity when it lies past the last finite bound, NaN when nothing
 * was observed.
 */
export function histogramQuantile(
  before: Map<number, number>,
  after: Map<number, number>,
  q: number,
): number {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const counts = bounds.map((bound) => (after.get(bound) ?? 0) - (before.get(bound) ?? 0));
  const total = counts.at(-1) ?? 0;
  if (total === 0) return Number.NaN;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const [index, bound] of bounds.entries()) {
    const upTo = counts[index] ?? 0;
    if (upTo >= rank) {
      if (bound === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
      return Math.round((lower + ((bound - lower) * (rank - below)) / Math.max(1, upTo - below)) * 1_000);
    }
    lower = bound;
    below = upTo;
  }
  return Number.NaN;
}

/** A gauge's value in a /metrics text (its first series); NaN when absent. */
export function gaugeValue(metricsText: string, name: string): number {
  return Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(metricsText)?.[1] ?? Number.NaN);
}
