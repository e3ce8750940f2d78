/** What the site list needs from a finished check: when it ran and whether it found an update. */
export interface CheckOutcome {
  targetId: string;
  userId: string;
  completedAt: Date;
  outcome: 'no_change' | 'update' | 'error' | string;
}
