/** Rows that only matter for a while: failed sign-ins, spent or expired links, ended sessions, long-expired API tokens. */
export interface ExpiredRowsPort {
  /** Deletes them; `failuresBefore` ends the throttling window. Returns how many went. */
  pruneExpired(now: Date, failuresBefore: Date): Promise<number>;
}
