export type FilingsProblemKind =
  | 'invalid'
  | 'not_found'
  | 'precondition'
  | 'source_busy'
  | 'source_unavailable';

/** A refusal the API answers with a status and `<code>|<field>|<reason>`. */
export class FilingsProblem extends Error {
  override readonly name = 'FilingsProblem';
  constructor(
    readonly kind: FilingsProblemKind,
    code: string,
    field = '',
  ) {
    super(`${code}|${field}|`);
  }
}
