/** `columns` as a select list, each after `alias.` when one is given (a query joining tables). */
export function columnList(columns: readonly string[], alias = ''): string {
  return columns.map((column) => (alias ? `${alias}.${column}` : column)).join(', ');
}
