import { RULE_LIMITS, RULE_OPERATORS } from '@mimamori/watch-engine/notification-rules';
import { useTranslation } from 'react-i18next';
import type { NotificationRules, RuleCondition, RuleGroup, RuleOperator } from '../api/target-settings.ts';
import {
  type ConditionProblem,
  conditionProblem,
  isNumericOperator,
  newCondition,
  newGroup,
  operandsFor,
  withOperator,
} from './rule-groups.ts';
import type { PatternProblems } from './use-pattern-problems.ts';
import './rule-editor.css';

export type RuleArea = { areaId: string; label: string };

/**
 * Notification rule groups (docs/product.md#rules): groups of conditions, each group AND or OR inside,
 * the groups combined AND or OR. A group left without conditions is removed when saved.
 * Shared by the registration wizard and the site detail's settings.
 */
export function RuleGroupEditor({
  idPrefix,
  rules,
  areas,
  showProblems = false,
  patternProblems = new Map(),
  onChange,
}: {
  idPrefix: string;
  rules: NotificationRules;
  areas: readonly RuleArea[];
  /** Mark values the watch engine would refuse (after a save was tried). */
  showProblems?: boolean;
  /** Regular expressions Register would refuse, shown as typed (usePatternProblems). */
  patternProblems?: PatternProblems;
  onChange: (rules: NotificationRules) => void;
}) {
  const { t } = useTranslation();
  const firstArea = areas[0]?.areaId ?? '';
  const setGroup = (index: number, group: RuleGroup) =>
    onChange({ ...rules, groups: rules.groups.map((entry, at) => (at === index ? group : entry)) });

  return (
    <fieldset className="panel rule-editor">
      <legend className="field-label">{t('wizard.rules.title')}</legend>
      <p className="field-hint">
        {t(rules.groups.length === 0 ? 'wizard.rules.noneHint' : 'wizard.rules.hint')}
      </p>
      {rules.groups.length > 1 && (
        <CombineChoice
          id={`${idPrefix}-combine`}
          label={t('wizard.rules.combineGroups')}
          value={rules.combine}
          onChange={(combine) => onChange({ ...rules, combine })}
        />
      )}
      {rules.groups.map((group, groupIndex) => (
        <GroupEditor
          // Groups are edited in place; their position is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          key={groupIndex}
          id={`${idPrefix}-group-${groupIndex}`}
          number={groupIndex + 1}
          group={group}
          areas={areas}
          showProblems={showProblems}
          patternProblems={patternProblems}
          onChange={(changed) => setGroup(groupIndex, changed)}
          onRemove={() => onChange({ ...rules, groups: rules.groups.filter((_, at) => at !== groupIndex) })}
        />
      ))}
      <button
        type="button"
        className="button small"
        disabled={firstArea === ''}
        onClick={() => onChange({ ...rules, groups: [...rules.groups, newGroup(firstArea)] })}
      >
        {t('wizard.rules.addGroup')}
      </button>
    </fieldset>
  );
}

function CombineChoice({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: 'and' | 'or';
  onChange: (value: 'and' | 'or') => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="field rule-combine">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select
        id={id}
        className="input"
        value={value}
        onChange={(event) => onChange(event.target.value === 'or' ? 'or' : 'and')}
      >
        <option value="and">{t('wizard.rules.and')}</option>
        <option value="or">{t('wizard.rules.or')}</option>
      </select>
    </div>
  );
}

function GroupEditor({
  id,
  number,
  group,
  areas,
  showProblems,
  patternProblems,
  onChange,
  onRemove,
}: {
  id: string;
  number: number;
  group: RuleGroup;
  areas: readonly RuleArea[];
  showProblems: boolean;
  patternProblems: PatternProblems;
  onChange: (group: RuleGroup) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const setCondition = (index: number, condition: RuleCondition) =>
    onChange({
      ...group,
      conditions: group.conditions.map((entry, at) => (at === index ? condition : entry)),
    });
  return (
    <fieldset className="rule-group">
      <legend>{t('wizard.rules.group', { number })}</legend>
      {group.conditions.length > 1 && (
        <CombineChoice
          id={`${id}-combine`}
          label={t('wizard.rules.combineConditions')}
          value={group.combine}
          onChange={(combine) => onChange({ ...group, combine })}
        />
      )}
      {group.conditions.length === 0 && <p className="muted">{t('wizard.rules.emptyGroup')}</p>}
      <ol className="rule-conditions">
        {group.conditions.map((condition, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: conditions are edited in place by position
          <li key={index}>
            <ConditionEditor
              id={`${id}-condition-${index}`}
              number={index + 1}
              condition={condition}
              areas={areas}
              problem={showProblems ? conditionProblem(condition) : undefined}
              patternProblem={patternProblems.get(condition.value)}
              onChange={(changed) => setCondition(index, changed)}
              onRemove={() =>
                onChange({ ...group, conditions: group.conditions.filter((_, at) => at !== index) })
              }
            />
          </li>
        ))}
      </ol>
      <div className="button-row">
        <button
          type="button"
          className="button small"
          disabled={areas.length === 0}
          onClick={() =>
            onChange({ ...group, conditions: [...group.conditions, newCondition(areas[0]?.areaId ?? '')] })
          }
        >
          {t('wizard.rules.addCondition')}
        </button>
        <button
          type="button"
          className="button small"
          aria-label={t('wizard.rules.removeGroupNamed', { number })}
          onClick={onRemove}
        >
          {t('wizard.rules.removeGroup')}
        </button>
      </div>
    </fieldset>
  );
}

function ConditionEditor({
  id,
  number,
  condition,
  areas,
  problem,
  patternProblem,
  onChange,
  onRemove,
}: {
  id: string;
  number: number;
  condition: RuleCondition;
  areas: readonly RuleArea[];
  problem: ConditionProblem | undefined;
  /** Why Register would refuse this pattern, known as it is typed. */
  patternProblem: string | undefined;
  onChange: (condition: RuleCondition) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const numeric = isNumericOperator(condition.operator);
  // A pattern rule says which regular expressions run (docs/product.md#rules).
  const pattern = condition.operator === 're' || condition.operator === 'not_re';
  const area = areas.find((entry) => entry.areaId === condition.areaId);
  // The message names the condition, its area and the pattern as typed, as the area step's do.
  const message = problem
    ? t(`wizard.rules.problems.${problem}`, { max: RULE_LIMITS.valueLength })
    : pattern && patternProblem
      ? t('wizard.rules.patternProblem', {
          number,
          area: area?.label || condition.areaId,
          pattern: condition.value,
          reason: t(`wizard.optionProblems.reasons.${patternProblem}`, {
            defaultValue: t('wizard.optionProblems.reasons.invalid'),
          }),
        })
      : undefined;
  return (
    <fieldset className="rule-condition">
      <legend className="rule-condition-title">{t('wizard.rules.condition', { number })}</legend>
      <div className="field">
        <label htmlFor={`${id}-area`} className="field-label">
          {t('wizard.rules.area')}
        </label>
        <select
          id={`${id}-area`}
          className="input"
          value={condition.areaId}
          onChange={(event) => onChange({ ...condition, areaId: event.target.value })}
        >
          {areas.map((area) => (
            <option key={area.areaId} value={area.areaId}>
              {area.label || area.areaId}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-operand`} className="field-label">
          {t('wizard.rules.operand')}
        </label>
        <select
          id={`${id}-operand`}
          className="input"
          value={condition.operand}
          onChange={(event) =>
            onChange({ ...condition, operand: event.target.value as RuleCondition['operand'] })
          }
        >
          {operandsFor(condition.operator).map((operand) => (
            <option key={operand} value={operand}>
              {t(`wizard.rules.operands.${operand}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-operator`} className="field-label">
          {t('wizard.rules.operator')}
        </label>
        <select
          id={`${id}-operator`}
          className="input"
          value={condition.operator}
          onChange={(event) => onChange(withOperator(condition, event.target.value as RuleOperator))}
        >
          {RULE_OPERATORS.map((operator) => (
            <option key={operator} value={operator}>
              {t(`wizard.rules.operators.${operator}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-value`} className="field-label">
          {t('wizard.rules.value')}
        </label>
        <input
          id={`${id}-value`}
          className="input"
          inputMode={numeric ? 'decimal' : undefined}
          value={condition.value}
          aria-invalid={message ? true : undefined}
          aria-describedby={
            [
              numeric ? `${id}-numeric-hint` : '',
              pattern ? `${id}-regex-hint` : '',
              message ? `${id}-problem` : '',
            ]
              .filter(Boolean)
              .join(' ') || undefined
          }
          onChange={(event) => onChange({ ...condition, value: event.target.value })}
        />
        {numeric && (
          <p className="field-hint" id={`${id}-numeric-hint`}>
            {t('wizard.rules.numericHint')}
          </p>
        )}
        {pattern && (
          <p className="field-hint" id={`${id}-regex-hint`}>
            {t('wizard.rules.regexHint')}
          </p>
        )}
        {message && (
          <p className="field-error" id={`${id}-problem`}>
            {message}
          </p>
        )}
      </div>
      <button
        type="button"
        className="button small rule-remove"
        aria-label={t('wizard.rules.removeConditionNamed', { number })}
        onClick={onRemove}
      >
        {t('actions.remove')}
      </button>
    </fieldset>
  );
}
