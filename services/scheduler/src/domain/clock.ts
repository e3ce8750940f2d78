/** Time as the scheduler sees it; tests move it instead of waiting minutes. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
