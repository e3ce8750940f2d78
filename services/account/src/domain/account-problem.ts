/** How a refusal should reach the caller; the gRPC layer maps each to a status. */
export type ProblemKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'exists'
  | 'precondition'
  | 'throttled'
  | 'conflict';

/** A refusal with a stable code (`password_too_short`) the SPA turns into its message (docs/product.md#account). */
export class AccountProblem extends Error {
  readonly kind: ProblemKind;
  readonly code: string;

  constructor(kind: ProblemKind, code: string) {
    super(code);
    this.kind = kind;
    this.code = code;
  }
}

export function refuseIf(code: string | null, kind: ProblemKind = 'invalid'): void {
  if (code) throw new AccountProblem(kind, code);
}
