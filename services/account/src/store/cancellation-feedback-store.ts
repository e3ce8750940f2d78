import type { Db } from '@mimamori/db';
import type { CancellationFeedback } from '../domain/cancellation-feedback.ts';
import { ACCOUNT_SCHEMA } from './migrations.ts';

/** Keeps the cancel screen's questionnaire answers; the billing issue's cancel flow calls it. */
export async function recordCancellationFeedback(
  db: Db,
  entry: { id: string; userId: string; feedback: CancellationFeedback; at: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO ${ACCOUNT_SCHEMA}.cancellation_feedback (id, user_id, reasons, comment, created_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [entry.id, entry.userId, entry.feedback.reasons, entry.feedback.comment, entry.at],
  );
}
