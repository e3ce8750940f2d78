import { status } from '@grpc/grpc-js';
import { GrpcError } from '@mimamori/runtime';
import { AccountProblem, type ProblemKind } from '../domain/account-problem.ts';

const statusByKind: Record<ProblemKind, status> = {
  invalid: status.INVALID_ARGUMENT,
  unauthenticated: status.UNAUTHENTICATED,
  forbidden: status.PERMISSION_DENIED,
  not_found: status.NOT_FOUND,
  exists: status.ALREADY_EXISTS,
  precondition: status.FAILED_PRECONDITION,
  throttled: status.RESOURCE_EXHAUSTED,
  conflict: status.ABORTED,
};

/** Runs a use case, answering its refusals with a status and the problem code as details. */
export async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AccountProblem) throw new GrpcError(statusByKind[error.kind], error.code);
    throw error;
  }
}
