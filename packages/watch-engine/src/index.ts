export { AREA_OPTION_LIMITS, type AreaOptions, DEFAULT_AREA_OPTIONS } from './area-options.ts';
export type {
  AreaCheckInput,
  AreaErrorReason,
  AreaResult,
  NotCountedReason,
} from './compare-area.ts';
export type { AreaDiff, DiffRow, DiffSegment, DiffSide } from './diff/area-diff.ts';
export { formatDiffText } from './diff/format-diff-text.ts';
export { type CheckErrorReason, type CheckInput, type CheckResult, evaluateCheck } from './evaluate-check.ts';
export type { MatchedCondition } from './evaluate-rules.ts';
export {
  ALERT_AFTER_RANGE,
  alertDue,
  type CheckOutcome,
  changesBeyondDueTime,
  countCheck,
  DEFAULT_ALERT_AFTER,
  type FailureKind,
  type FailureStreak,
  failureKindOf,
  isFailing,
  NO_STREAK,
} from './failure-run.ts';
export { firstNumber } from './first-number.ts';
export { type AreaSnapshot, extractAreaContent } from './normalise/extract-area-content.ts';
export { type NormalisedArea, normaliseArea } from './normalise/normalise-area.ts';
export {
  type NotificationRules,
  NUMERIC_OPERATORS,
  RULE_LIMITS,
  RULE_OPERATORS,
  type RuleCondition,
  type RuleGroup,
  type RuleOperand,
  type RuleOperator,
} from './notification-rules.ts';
export type { RegexProblemCode } from './python-regex/regex-problem.ts';
export {
  type PythonRegexValidation,
  type RegexRefusal,
  validatePythonRegex,
} from './python-regex/user-regex.ts';
export { SILENCE_DAYS_RANGE, type SilenceWatch, silenceDue } from './silence.ts';
export {
  type SummaryArea,
  type SummaryLang,
  summariseArea,
  summariseUpdate,
  updateSummary,
} from './summary/summarise-update.ts';
export { validateAreaOptions } from './validate-area-options.ts';
export { validateRuleGroups } from './validate-notification-rules.ts';
export type { Validated, ValidationCode, ValidationProblem } from './validation.ts';
