import { useTranslation } from 'react-i18next';
import type { ActionType } from '../api/preview.ts';
import { useErrorText } from '../forms/use-error-text.ts';
import { type ActionDraft, actionProblem, newAction } from './wizard-draft.ts';

const ACTION_TYPES: readonly ActionType[] = ['click', 'enter_text', 'modifier_key', 'goto_url'];

/**
 * Edits a list of page actions (docs/product.md#login-and-actions): click, enter text, modifier key or go to a
 * URL; an element by selector or XPath, optionally inside an iframe; skippable when it may be absent.
 */
export function ActionListEditor({
  idPrefix,
  actions,
  onChange,
  disabled,
  showProblems = false,
}: {
  idPrefix: string;
  actions: ActionDraft[];
  onChange: (actions: ActionDraft[]) => void;
  disabled?: boolean;
  /** Mark what the target service would refuse (after Next was tried). */
  showProblems?: boolean;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const update = (index: number, changes: Partial<ActionDraft>) =>
    onChange(actions.map((action, at) => (at === index ? { ...action, ...changes } : action)));

  return (
    <div className="action-list">
      {actions.length === 0 && <p className="muted">{t('wizard.actionList.none')}</p>}
      <ol className="action-items">
        {actions.map((action, index) => {
          const id = `${idPrefix}-${index}`;
          const number = index + 1;
          const needsElement = action.type === 'click' || action.type === 'enter_text';
          const problem = showProblems ? actionProblem(action) : undefined;
          const selectorProblem = problem === 'selector_required';
          const valueProblem = problem !== undefined && !selectorProblem;
          return (
            // Actions have no identity of their own; their place in the list is what they are.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index} className="action-item">
              <fieldset className="panel action-fieldset" disabled={disabled}>
                <legend>{t('wizard.actionList.action', { number })}</legend>
                <div className="field">
                  <label htmlFor={`${id}-type`} className="field-label">
                    {t('wizard.actionList.type')}
                  </label>
                  <select
                    id={`${id}-type`}
                    className="input"
                    value={action.type}
                    onChange={(event) => update(index, { type: event.target.value as ActionType, value: '' })}
                  >
                    {ACTION_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {t(`wizard.actionTypes.${type}`)}
                      </option>
                    ))}
                  </select>
                </div>
                {needsElement && (
                  <>
                    <div className="field">
                      <label htmlFor={`${id}-selector-type`} className="field-label">
                        {t('wizard.actionList.selectorType')}
                      </label>
                      <select
                        id={`${id}-selector-type`}
                        className="input"
                        value={action.selectorType}
                        onChange={(event) =>
                          update(index, { selectorType: event.target.value === 'xpath' ? 'xpath' : 'css' })
                        }
                      >
                        <option value="css">{t('wizard.actionList.css')}</option>
                        <option value="xpath">{t('wizard.actionList.xpath')}</option>
                      </select>
                    </div>
                    <div className="field">
                      <label htmlFor={`${id}-selector`} className="field-label">
                        {t('wizard.actionList.selector')}
                      </label>
                      <input
                        id={`${id}-selector`}
                        className="input"
                        value={action.selector}
                        aria-invalid={selectorProblem ? true : undefined}
                        aria-describedby={selectorProblem ? `${id}-problem` : undefined}
                        onChange={(event) => update(index, { selector: event.target.value })}
                      />
                      {selectorProblem && (
                        <p className="field-error" id={`${id}-problem`}>
                          {errorText(problem)}
                        </p>
                      )}
                    </div>
                    <div className="field">
                      <label htmlFor={`${id}-frame`} className="field-label">
                        {t('wizard.actionList.frameSelector')}
                      </label>
                      <input
                        id={`${id}-frame`}
                        className="input"
                        value={action.frameSelector}
                        onChange={(event) => update(index, { frameSelector: event.target.value })}
                      />
                    </div>
                  </>
                )}
                {action.type !== 'click' && (
                  <div className="field">
                    <label htmlFor={`${id}-value`} className="field-label">
                      {t(`wizard.actionValues.${action.type}`)}
                    </label>
                    <input
                      id={`${id}-value`}
                      className="input"
                      type={action.type === 'goto_url' ? 'url' : 'text'}
                      autoComplete="off"
                      value={action.value}
                      placeholder={action.hasValue ? t('wizard.actionList.keepsValue') : undefined}
                      aria-invalid={valueProblem ? true : undefined}
                      aria-describedby={valueProblem ? `${id}-problem` : undefined}
                      onChange={(event) => update(index, { value: event.target.value })}
                    />
                    {valueProblem && (
                      <p className="field-error" id={`${id}-problem`}>
                        {errorText(problem)}
                      </p>
                    )}
                  </div>
                )}
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={action.skippable}
                    onChange={(event) => update(index, { skippable: event.target.checked })}
                  />
                  {t('wizard.actionList.skippable')}
                </label>
                <div className="button-row">
                  <button
                    type="button"
                    className="button small"
                    aria-label={t('wizard.actionList.removeNamed', { number })}
                    onClick={() => onChange(actions.filter((_, at) => at !== index))}
                  >
                    {t('actions.remove')}
                  </button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        className="button small"
        disabled={disabled}
        onClick={() => onChange([...actions, newAction()])}
      >
        {t('wizard.actionList.add')}
      </button>
    </div>
  );
}
