/** How long a failed delivery waits before the next one: 1 s, 2 s, 4 s, … capped at a minute. */
export type RetryDelay = (deliveryCount: number) => number;

export const exponentialRetryDelay: RetryDelay = (deliveryCount) =>
  Math.min(1_000 * 2 ** Math.max(0, deliveryCount - 1), 60_000);
