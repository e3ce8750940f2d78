import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormMessage } from '../forms/form-message.tsx';
import { exclusionPagePath, listedElements, listedText } from './area-boxes.ts';
import { StepButtons } from './step-buttons.tsx';
import type { AreaSelection } from './use-area-selection.ts';
import type { StepProps } from './wizard-step.ts';

/** Elements offered in the keyboard list: enough for any page a person reads through. */
const LISTED_ELEMENTS = 400;
const LISTED_TEXT = 80;

/**
 * Step 5: designate the areas to watch, on the screenshot (click or drag) or from the element
 * list; designated areas are listed with a way to deselect them.
 */
export function AreasStep({
  draft,
  preview,
  selection,
  onBack,
  onNext,
  onReopen,
}: StepProps & { selection: AreaSelection; onReopen: () => void }) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState('');
  const [missing, setMissing] = useState(false);
  const listed = useMemo(() => listedElements(preview?.render.elements ?? []), [preview]);
  const offered = listed.slice(0, LISTED_ELEMENTS);

  const next = () => {
    if (draft.areas.length === 0) {
      setMissing(true);
      return;
    }
    onNext();
  };

  return (
    <div className="form wizard-form">
      <p className="lead">{t(preview ? 'wizard.areas.lead' : 'wizard.areas.noPreview')}</p>
      {!preview && (
        <div className="button-row">
          <button type="button" className="button" onClick={onReopen}>
            {t('wizard.areas.reopen')}
          </button>
        </div>
      )}
      {preview && offered.length > 0 && (
        <div className="field">
          <label htmlFor="wizard-element" className="field-label">
            {t('wizard.areas.elementList')}
          </label>
          <div className="inline-pick">
            <select
              id="wizard-element"
              className="input"
              value={chosen}
              onChange={(event) => setChosen(event.target.value)}
            >
              <option value="">{t('wizard.areas.elementListPrompt')}</option>
              {offered.map((element) => (
                <option key={element.css} value={element.css}>
                  {listedText(element).slice(0, LISTED_TEXT)}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="button"
              disabled={chosen === '' || selection.pending}
              onClick={() => {
                const element = offered.find((entry) => entry.css === chosen);
                if (element) selection.pick(element);
              }}
            >
              {t('wizard.areas.add')}
            </button>
          </div>
        </div>
      )}
      {selection.pending && (
        <p className="muted" role="status">
          {t('wizard.areas.reading')}
        </p>
      )}
      {selection.message && <FormMessage tone={selection.message.tone} message={selection.message.text} />}
      <section aria-labelledby="wizard-designated">
        <h2 id="wizard-designated" className="step-subtitle">
          {t('wizard.areas.designated', { count: draft.areas.length })}
        </h2>
        {draft.areas.length === 0 ? (
          <p className="muted">{t('wizard.areas.none')}</p>
        ) : (
          <ul className="area-list">
            {draft.areas.map((area) => (
              <li key={area.areaId} className="area-row">
                <span className="area-row-label">{area.label}</span>
                {preview && area.locator.selector_type === 'css' && (
                  <button
                    type="button"
                    className="button small"
                    aria-pressed={selection.excludingArea?.areaId === area.areaId}
                    aria-label={t('wizard.areas.excludeNamed', { label: area.label })}
                    onClick={() =>
                      selection.setExcluding(
                        selection.excludingArea?.areaId === area.areaId ? undefined : area.areaId,
                      )
                    }
                  >
                    {t('wizard.areas.exclude')}
                  </button>
                )}
                <button
                  type="button"
                  className="button small"
                  aria-label={t('wizard.areas.deselectNamed', { label: area.label })}
                  onClick={() => selection.deselect(area.areaId)}
                >
                  {t('wizard.areas.deselect')}
                </button>
                {(area.options.excludeElements ?? []).length > 0 && (
                  <ul
                    className="area-exclusions"
                    aria-label={t('wizard.areas.exclusions', { label: area.label })}
                  >
                    {(area.options.excludeElements ?? []).map((selector) => {
                      const path = exclusionPagePath(area.locator.selector, selector);
                      const element = preview?.render.elements.find((entry) => entry.css === path);
                      const shown = (element && listedText(element).slice(0, LISTED_TEXT)) || selector;
                      return (
                        <li key={selector} className="area-exclusion">
                          <span className="area-exclusion-text">{shown}</span>
                          <button
                            type="button"
                            className="button small"
                            aria-label={t('wizard.areas.removeExclusionNamed', { text: shown })}
                            onClick={() => selection.unexclude(area.areaId, selector)}
                          >
                            {t('wizard.areas.removeExclusion')}
                          </button>
                        </li>
                      );
                    })}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      {missing && draft.areas.length === 0 && (
        <FormMessage tone="error" message={t('wizard.areas.required')} />
      )}
      <StepButtons onBack={onBack} onNext={next} nextDisabled={selection.pending} />
    </div>
  );
}
