import { status } from '@grpc/grpc-js';
import { GrpcError } from '@mimamori/runtime';
import { type ProblemKind, TargetProblem } from '../domain/target-problem.ts';

const statusByKind: Record<ProblemKind, status> = {
  invalid: status.INVALID_ARGUMENT,
  not_found: status.NOT_FOUND,
  busy: status.ABORTED,
  conflict: status.ABORTED,
  precondition: status.FAILED_PRECONDITION,
};

/** Runs a use case, answering its refusals with a status and `<code>|<field>|<reason>`. */
export async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TargetProblem) throw new GrpcError(statusByKind[error.kind], error.message);
    throw error;
  }
}
