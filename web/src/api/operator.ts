import type { OperatorDetailsAnswer } from '@mimamori/http-api';
import { apiRequest } from './client.ts';

/** Who sells the product (GET /api/operator), for the legal pages. */
export type OperatorDetails = OperatorDetailsAnswer;

export function fetchOperator(signal?: AbortSignal): Promise<OperatorDetails> {
  return apiRequest<OperatorDetails>('/api/operator', signal ? { signal } : {});
}
