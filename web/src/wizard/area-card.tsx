import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AreaReading, ReadDocumentInput } from '../api/preview.ts';
import type { AreaOptions } from '../api/target-settings.ts';
import { useErrorText } from '../forms/use-error-text.ts';
import { useDocumentAreas, useNormalisedArea } from '../hooks/use-preview.ts';
import { type OptionField, optionProblemMessage } from './option-problem.ts';
import { type AreaDraft, areaOptions } from './wizard-draft.ts';

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
export const isEmpty = (area: AreaDraft) => area.options.stripTags && area.content.trim() === '';

/**
 * One area's label and options, and its content as checks will compare it: read again from the
 * live page whenever the options change (without a preview, the content saved at registration).
 */
export function AreaCard({
  area,
  number,
  sessionId,
  document,
  onChange,
}: {
  area: AreaDraft;
  number: number;
  sessionId: string | null;
  /** A PDF, JSON or XML target's URL, read as its kind: the area is read from it instead. */
  document?: Omit<ReadDocumentInput, 'areas'> | undefined;
  onChange: (update: (area: AreaDraft) => AreaDraft) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const options = useMemo(() => areaOptions(area), [area]);
  // A document's area is not read in the page preview (its selector is no CSS or XPath of a page).
  const { selector_type: selectorType } = area.locator;
  const pageArea =
    selectorType === 'css' || selectorType === 'xpath'
      ? { ...area.locator, selector_type: selectorType }
      : null;
  const pageReading = useNormalisedArea(
    pageArea ? sessionId : null,
    pageArea ?? { ...area.locator, selector_type: 'css' },
    options,
  );
  const documentInput = useMemo<ReadDocumentInput | null>(
    () =>
      document && !pageArea
        ? {
            ...document,
            areas: [
              {
                selector: area.locator.selector,
                selector_type: area.locator.selector_type as 'pages' | 'text' | 'jsonpath' | 'xpath',
                // The gateway validates them with the watch engine, as for a page's area.
                options: { ...options } as Record<string, unknown>,
              },
            ],
          }
        : null,
    [document, pageArea, area.locator, options],
  );
  const documentReading = useDocumentAreas(documentInput);
  const read = documentReading.data;
  const documentArea = read && 'areas' in read ? read.areas[0] : undefined;
  // A document's area read as the page preview reads one, so the card shows it the same way.
  const reading: Pick<typeof pageReading, 'isFetching' | 'isError' | 'error'> & {
    data: AreaReading | undefined;
  } = pageArea
    ? pageReading
    : {
        isFetching: documentReading.isFetching,
        isError: documentReading.isError,
        error: documentReading.error,
        data: documentArea && {
          found: documentArea.found,
          text: documentArea.text,
          ...(documentArea.normalised_text !== undefined
            ? { normalised_text: documentArea.normalised_text }
            : {}),
          ...(documentArea.options_problem ? { options_problem: documentArea.options_problem } : {}),
          html: '',
          name: '',
          // Documents are read over plain HTTP only.
          http_suffices: true,
        },
      };
  const id = `wizard-area-${area.areaId}`;
  const setOptions = (changes: Partial<AreaOptions>) =>
    onChange((current) => ({ ...current, options: { ...current.options, ...changes } }));
  const setText = (changes: Partial<Pick<AreaDraft, 'label' | 'wordsText' | 'regexesText'>>) =>
    onChange((current) => ({ ...current, ...changes }));

  const answer = reading.data;
  // What the live page shows now becomes the area's content (the data at registration), and
  // tells whether HTTP mode reads it too: a stored area read again in edit mode is brought up to date.
  const { content, httpSuffices } = area;
  useEffect(() => {
    if (!answer?.found || (content === answer.text && httpSuffices === answer.http_suffices)) return;
    onChange((current) => ({ ...current, content: answer.text, httpSuffices: answer.http_suffices }));
  }, [answer, content, httpSuffices, onChange]);
  const shown = answer?.normalised_text ?? area.content;
  const empty = answer?.normalised_text !== undefined ? answer.normalised_text.trim() === '' : isEmpty(area);
  // Refused as Register would refuse it (the gateway runs the watch engine's check), said here.
  const optionsProblem = answer?.options_problem
    ? optionProblemMessage(answer.options_problem, area, number, t)
    : undefined;
  const invalid = (field: OptionField) =>
    optionsProblem &&
    (optionsProblem.field === field || (field === 'regexes' && optionsProblem.field !== 'words'));
  const problemId = `${id}-options-problem`;

  return (
    <fieldset className="panel area-card">
      <legend className="area-card-title">{t('wizard.content.area', { number })}</legend>
      <div className="field">
        <label htmlFor={`${id}-label`} className="field-label">
          {t('wizard.content.label')}
        </label>
        <input
          id={`${id}-label`}
          className="input"
          value={area.label}
          onChange={(event) => setText({ label: event.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-text`} className="field-label">
          {t(sessionId || documentInput ? 'wizard.content.normalised' : 'wizard.content.text')}
        </label>
        <textarea
          id={`${id}-text`}
          className="input area-text"
          readOnly
          rows={Math.min(8, Math.max(2, shown.split('\n').length))}
          value={shown}
          aria-busy={reading.isFetching}
          aria-invalid={empty ? true : undefined}
          aria-describedby={empty ? `${id}-empty` : undefined}
        />
        {reading.isError && <p className="field-error">{errorText(reading.error)}</p>}
        {empty && (
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
              onChange={(event) => setOptions({ [flag]: event.target.checked })}
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
          aria-invalid={invalid('words') ? true : undefined}
          aria-describedby={invalid('words') ? `${id}-lines-hint ${problemId}` : `${id}-lines-hint`}
          onChange={(event) => setText({ wordsText: event.target.value })}
        />
        {optionsProblem?.field === 'words' && (
          <p className="field-error" id={problemId}>
            {optionsProblem.text}
          </p>
        )}
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
          aria-invalid={invalid('regexes') ? true : undefined}
          aria-describedby={
            invalid('regexes')
              ? `${id}-lines-hint ${id}-regex-hint ${problemId}`
              : `${id}-lines-hint ${id}-regex-hint`
          }
          onChange={(event) => setText({ regexesText: event.target.value })}
        />
        <p className="field-hint" id={`${id}-lines-hint`}>
          {t('wizard.options.onePerLine')}
        </p>
        {/* Which patterns run and which are refused (docs/product.md#areas). */}
        <p className="field-hint" id={`${id}-regex-hint`}>
          {t('wizard.options.regexHint')}
        </p>
        {optionsProblem && optionsProblem.field !== 'words' && (
          <p className="field-error" id={problemId}>
            {optionsProblem.text}
          </p>
        )}
      </div>
      <div className="past-updates">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={area.options.excludeSameAsPast.enabled}
            onChange={(event) =>
              setOptions({
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
                setOptions({
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
}
