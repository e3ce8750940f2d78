/**
 * Each user's filings searches, as a token bucket: a burst of `burst` searches, then one every
 * `1 / perSecond` seconds. The SPA searches as the user types (from 3 characters), so the burst
 * covers typing a name; a script hammering the directory or GlobeNewswire is told to wait
 * ('try again in a few minutes', docs/product.md#filings). Kept per gateway replica: a user
 * spread over n replicas gets at most n times the allowance, which still bounds the load.
 */
export class SearchAllowance {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly burst: number,
    readonly perSecond: number,
    private readonly now: () => number = Date.now,
    /** Users remembered at most; the fullest buckets (idle users) are forgotten first. */
    private readonly maxUsers = 10_000,
  ) {}

  /** Takes one search from the user's bucket; false when it is empty. */
  take(userId: string): boolean {
    const now = this.now();
    const bucket = this.#buckets.get(userId) ?? { tokens: this.burst, at: now };
    const tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1_000) * this.perSecond);
    this.#buckets.delete(userId);
    if (tokens < 1) {
      this.#buckets.set(userId, { tokens, at: now });
      return false;
    }
    this.#buckets.set(userId, { tokens: tokens - 1, at: now });
    if (this.#buckets.size > this.maxUsers) {
      // Map order is last use: the oldest entry has refilled the longest.
      const oldest = this.#buckets.keys().next().value;
      if (oldest !== undefined) this.#buckets.delete(oldest);
    }
    return true;
  }
}
