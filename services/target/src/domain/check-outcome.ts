/**
 * What the site list needs from a finished check: when it ran, whether it found an update, and
 * for a failure its kind's inputs (docs/product.md#failure-alerts).
 */
export interface CheckOutcome {
  targetId: string;
  userId: string;
  dueAt: Date;
  completedAt: Date;
  outcome: 'no_change' | 'update' | 'error' | string;
  errorCode: string;
  errorDetail: string;
  errorAreaId: string;
}
