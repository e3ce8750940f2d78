/** Time as the account service sees it; tests move it to run trials and throttling windows. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
