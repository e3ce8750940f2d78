/** What a store needs from the database: parameterised SQL and transactions. */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<QueryResult<Row>>;
  /** Runs several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
}

export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Db extends Sql {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  /** Whether the database answers; used by readiness probes. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
