import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AreaOptions } from '../api/target-settings.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { StepButtons } from './step-buttons.tsx';
import type { AreaDraft } from './wizard-draft.ts';
import type { StepProps } from './wizard-step.ts';

type Flag = 'stripTags' | 'excludeDates' | 'excludeTimes' | 'excludeNumbers' | 'addOnly' | 'allowSameWords';
const FLAGS: readonly Flag[] = [
  'stripTags',
  'excludeDates',
  'excludeTimes',
  'excludeNumbers',
  'addOnly',
  'allowSameWords',
];
const MAX_PAST_UPDATES = 100;

/** With tags stripped an area without text has nothing to compare; with markup it still has its tags. */
const isEmpty = (area: AreaDraft) => area.options.stripTags && area.content.trim() === '';

/** Step 6: each area's label and options, with the content the page shows in it now. */
export function ContentStep({ draft, change, onBack, onNext }: StepProps) {
  const { t } = useTranslation();
  const [tried, setTried] = useState(false);
  const updateArea = (areaId: string, update: (area: AreaDraft) => AreaDraft) =>
    change((current) => ({
      ...current,
      areas: current.areas.map((area) => (area.areaId === areaId ? update(area) : area)),
    }));
  const setOptions = (areaId: string, options: Partial<AreaOptions>) =>
    updateArea(areaId, (area) => ({ ...area, options: { ...area.options, ...options } }));
  const empty = draft.areas.filter(isEmpty);

  const next = () => {
    setTried(true);
    if (empty.length === 0 && draft.areas.length > 0) onNext();
  };

  return (
    <div className="form wizard-form">
      <p className="lead">{t('wizard.content.lead')}</p>
      {draft.areas.map((area, index) => {
        const id = `wizard-area-${area.areaId}`;
        return (
          <fieldset key={area.areaId} className="area-card">
            <legend className="area-card-title">{t('wizard.content.area', { number: index + 1 })}</legend>
            <div className="field">
              <label htmlFor={`${id}-label`} className="field-label">
                {t('wizard.content.label')}
              </label>
              <input
                id={`${id}-label`}
                className="input"
                value={area.label}
                onChange={(event) => {
                  const label = event.target.value;
                  updateArea(area.areaId, (current) => ({ ...current, label }));
                }}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-text`} className="field-label">
                {t('wizard.content.text')}
              </label>
              <textarea
                id={`${id}-text`}
                className="input area-text"
                readOnly
                rows={Math.min(8, Math.max(2, area.content.split('\n').length))}
                value={area.content}
                aria-invalid={isEmpty(area) ? true : undefined}
                aria-describedby={isEmpty(area) ? `${id}-empty` : undefined}
              />
              {isEmpty(area) && (
                <p className="field-error" id={`${id}-empty`}>
                  {t('wizard.content.empty')}
                </p>
              )}
            </div>
            <div className="option-grid">
              {FLAGS.map((flag) => (
                <label key={flag} className="checkbox">
                  <input
                    type="checkbox"
                    checked={area.options[flag]}
                    onChange={(event) => setOptions(area.areaId, { [flag]: event.target.checked })}
                  />
                  {t(`wizard.options.${flag}`)}
                </label>
              ))}
            </div>
            <div className="field">
              <label htmlFor={`${id}-words`} className="field-label">
                {t('wizard.options.excludeWords')}
              </label>
              <textarea
                id={`${id}-words`}
                className="input"
                rows={2}
                value={area.wordsText}
                aria-describedby={`${id}-lines-hint`}
                onChange={(event) => {
                  const wordsText = event.target.value;
                  updateArea(area.areaId, (current) => ({ ...current, wordsText }));
                }}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-regexes`} className="field-label">
                {t('wizard.options.excludeRegexes')}
              </label>
              <textarea
                id={`${id}-regexes`}
                className="input"
                rows={2}
                value={area.regexesText}
                aria-describedby={`${id}-lines-hint`}
                onChange={(event) => {
                  const regexesText = event.target.value;
                  updateArea(area.areaId, (current) => ({ ...current, regexesText }));
                }}
              />
              <p className="field-hint" id={`${id}-lines-hint`}>
                {t('wizard.options.onePerLine')}
              </p>
            </div>
            <div className="past-updates">
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={area.options.excludeSameAsPast.enabled}
                  onChange={(event) =>
                    setOptions(area.areaId, {
                      excludeSameAsPast: {
                        enabled: event.target.checked,
                        count: event.target.checked ? Math.max(1, area.options.excludeSameAsPast.count) : 0,
                      },
                    })
                  }
                />
                {t('wizard.options.excludeSameAsPast')}
              </label>
              {area.options.excludeSameAsPast.enabled && (
                <div className="field past-count">
                  <label htmlFor={`${id}-past`} className="field-label">
                    {t('wizard.options.pastCount')}
                  </label>
                  <input
                    id={`${id}-past`}
                    className="input"
                    type="number"
                    min={1}
                    max={MAX_PAST_UPDATES}
                    value={area.options.excludeSameAsPast.count}
                    onChange={(event) =>
                      setOptions(area.areaId, {
                        excludeSameAsPast: {
                          enabled: true,
                          count: Math.min(
                            MAX_PAST_UPDATES,
                            Math.max(1, Math.trunc(Number(event.target.value)) || 1),
                          ),
                        },
                      })
                    }
                  />
                </div>
              )}
            </div>
          </fieldset>
        );
      })}
      {tried && empty.length > 0 && <FormMessage tone="error" message={t('wizard.content.empty')} />}
      <StepButtons onBack={onBack} onNext={next} />
    </div>
  );
}
