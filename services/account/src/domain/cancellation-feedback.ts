import { checkNotes } from './profile-fields.ts';

/** Why a subscriber cancels (docs/product.md#subscription), asked on the cancel screen (billing issue). */
export const CANCELLATION_REASONS = [
  'site_not_supported',
  'no_longer_needed',
  'hard_to_use',
  'too_expensive',
  'switching_service',
  'other',
] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

export interface CancellationFeedback {
  reasons: CancellationReason[];
  comment: string;
}

export function checkCancellationFeedback(input: { reasons: string[]; comment: string }): string | null {
  if (input.reasons.length === 0) return 'cancellation_reason_required';
  if (!input.reasons.every((reason) => (CANCELLATION_REASONS as readonly string[]).includes(reason))) {
    return 'invalid_cancellation_reason';
  }
  return checkNotes(input.comment);
}
