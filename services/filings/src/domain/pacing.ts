/** What the pacing and backoff read the time from, so tests move it by hand. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * A token bucket per source: at most `perSecond` requests a second on average, bursts up to
 * `burst`. Callers await `take()` before each request; SEC's fair-access rule (10 a second in
 * total) and the gentler pace the others ask for are both this.
 */
export class RequestPacer {
  private tokens: number;
  private updatedAt: number;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly clock: Clock = systemClock,
  ) {
    this.tokens = burst;
    this.updatedAt = clock.now();
  }

  /** Resolves when a request may go; calls are served in order. */
  take(): Promise<void> {
    const turn = this.queue.then(() => this.waitForToken());
    this.queue = turn;
    return turn;
  }

  private async waitForToken(): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.updatedAt) / 1_000) * this.perSecond);
      this.updatedAt = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await this.clock.sleep(Math.ceil(((1 - this.tokens) / this.perSecond) * 1_000));
    }
  }
}

/**
 * The wait before the next poll of a source: its interval while it answers, doubling from
 * there with each failure in a row up to `maxMs`, so a source that is down or asked us to
 * slow down is not hammered.
 */
export function nextPollDelay(intervalMs: number, failuresInRow: number, maxMs: number): number {
  if (failuresInRow <= 0) return intervalMs;
  return Math.min(maxMs, intervalMs * 2 ** Math.min(failuresInRow, 30));
}
