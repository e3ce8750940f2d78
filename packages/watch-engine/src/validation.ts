import type { RegexProblemCode } from './python-regex/regex-problem.ts';

export type ValidationCode =
  | 'invalid_type'
  | 'required'
  | 'too_many'
  | 'too_long'
  | 'out_of_range'
  | 'unknown_area'
  | 'invalid_operand'
  | 'invalid_operator'
  | 'numeric_needs_all'
  | 'not_a_number'
  | 'invalid_selector'
  | RegexProblemCode;

/** One thing wrong with what the registration API received; `path` points into it ('groups[0].combine'). */
export interface ValidationProblem {
  readonly path: string;
  readonly code: ValidationCode;
  readonly message: string;
}

export type Validated<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problems: readonly ValidationProblem[] };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
