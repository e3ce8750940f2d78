/**
 * A token bucket per key (a user's filings searches, an API token's requests): a burst of `burst`,
 * then one every `1 / perSecond` seconds. The SPA searches as the user types (from 3 characters),
 * so the burst covers typing a name; a script hammering the directory or GlobeNewswire, or the
 * API, is told to wait ('try again in a few minutes', docs/product.md#filings). Kept per gateway
 * replica: a key spread over n replicas gets at most n times the allowance, which still bounds
 * the load.
 */
export class Allowance {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly burst: number,
    readonly perSecond: number,
    private readonly now: () => number = Date.now,
    /** Keys remembered at most; the fullest buckets (idle ones) are forgotten first. */
    private readonly maxKeys = 10_000,
  ) {}

  /** Takes one from the key's bucket; false when it is empty. */
  take(key: string): boolean {
    const now = this.now();
    const bucket = this.#buckets.get(key) ?? { tokens: this.burst, at: now };
    const tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1_000) * this.perSecond);
    this.#buckets.delete(key);
    if (tokens < 1) {
      this.#buckets.set(key, { tokens, at: now });
      return false;
    }
    this.#buckets.set(key, { tokens: tokens - 1, at: now });
    if (this.#buckets.size > this.maxKeys) {
      // Map order is last use: the oldest entry has refilled the longest.
      const oldest = this.#buckets.keys().next().value;
      if (oldest !== undefined) this.#buckets.delete(oldest);
    }
    return true;
  }
}
