/** Why a Python-syntax pattern was refused. Stable codes: the registration API maps them to messages. */
export type RegexProblemCode =
  | 'empty_pattern'
  | 'too_long'
  | 'syntax_error'
  | 'unsupported_lookaround'
  | 'unsupported_backreference'
  | 'unsupported_atomic_group'
  | 'unsupported_possessive'
  | 'unsupported_conditional'
  | 'unsupported_flag'
  | 'too_complex';

/** Thrown inside the translator only; callers get it back as a value. */
export class RegexProblem extends Error {
  readonly code: RegexProblemCode;

  constructor(code: RegexProblemCode, message: string) {
    super(message);
    this.code = code;
  }
}
