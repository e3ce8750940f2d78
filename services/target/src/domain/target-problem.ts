/** How a refusal reaches the caller; the gRPC layer maps each to a status. */
export type ProblemKind = 'invalid' | 'not_found' | 'busy' | 'precondition' | 'conflict';

/**
 * A refusal with a stable code the SPA turns into its message, the field it is about
 * (`areas[0].locator.selector`) and, for watch-engine refusals, the engine's own reason.
 */
export class TargetProblem extends Error {
  readonly kind: ProblemKind;
  readonly code: string;
  readonly field: string;
  readonly reason: string;

  constructor(kind: ProblemKind, code: string, field = '', reason = '') {
    super(`${code}|${field}|${reason}`);
    this.kind = kind;
    this.code = code;
    this.field = field;
    this.reason = reason;
  }
}

export function invalid(code: string, field: string, reason = ''): TargetProblem {
  return new TargetProblem('invalid', code, field, reason);
}
