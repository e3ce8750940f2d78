/** Which text of an area a condition reads: its full text, the added part, or the deleted part. */
export type RuleOperand = 'all' | 'new' | 'old';

export const RULE_OPERATORS = [
  'keyword',
  'not_keyword',
  'greater',
  'less',
  'increase',
  'decrease',
  'increase_percent',
  'decrease_percent',
  're',
  'not_re',
] as const;

export type RuleOperator = (typeof RULE_OPERATORS)[number];

/** Operators that read the first number of the area's full text (docs/product.md#rules). */
export const NUMERIC_OPERATORS: ReadonlySet<RuleOperator> = new Set([
  'greater',
  'less',
  'increase',
  'decrease',
  'increase_percent',
  'decrease_percent',
]);

export interface RuleCondition {
  readonly areaId: string;
  readonly operand: RuleOperand;
  readonly operator: RuleOperator;
  /** A keyword, a Python-syntax pattern, or a number ('1,000', '１０００', '12万', '5%' all read). */
  readonly value: string;
}

export interface RuleGroup {
  readonly combine: 'and' | 'or';
  readonly conditions: readonly RuleCondition[];
}

/** A site's notification rules: groups combined by `combine`; no (non-empty) group means notify on every update. */
export interface NotificationRules {
  readonly combine: 'and' | 'or';
  readonly groups: readonly RuleGroup[];
}

export const RULE_LIMITS = { groups: 20, conditionsPerGroup: 20, valueLength: 1000 } as const;
