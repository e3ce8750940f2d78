import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReadDocumentInput } from '../api/preview.ts';
import { FormMessage } from '../forms/form-message.tsx';
import { TextField } from '../forms/text-field.tsx';
import { useDocumentAreas } from '../hooks/use-preview.ts';
import {
  areaProblem,
  type DocumentKind,
  type DocumentSelectorType,
  newDocumentArea,
} from './document-areas.ts';
import { StepButtons } from './step-buttons.tsx';
import type { OpenedDocument } from './url-step.tsx';
import type { AreaDraft } from './wizard-draft.ts';
import type { StepProps } from './wizard-step.ts';

const MAX_AREAS = 20;

/**
 * The areas step of a PDF, JSON or XML target (docs/product.md#documents-and-data): what the URL
 * serves, and each area as an expression fitting the kind (pages or text, a JSONPath, an XPath)
 * with the text it reads. An expression that does not parse is refused as it is typed.
 */
export function DocumentAreasStep({
  draft,
  change,
  document,
  onBack,
  onNext,
}: Pick<StepProps, 'draft' | 'change' | 'onBack' | 'onNext'> & { document: OpenedDocument | null }) {
  const { t } = useTranslation();
  const kind = draft.contentKind as DocumentKind;
  const [tried, setTried] = useState(false);
  const [blocked, setBlocked] = useState('');
  const areas = draft.areas;
  const problems = areas.map((area) => areaProblem(kind, area));
  const valid = areas.filter((_, index) => problems[index] === null);
  const input = useMemo<ReadDocumentInput | null>(
    () =>
      valid.length === 0
        ? null
        : {
            url: draft.url.trim(),
            user_agent: draft.userAgent,
            ...(draft.cookies.trim() ? { cookies: draft.cookies.trim() } : {}),
            content_kind: kind,
            areas: valid.map((area) => ({
              selector: area.locator.selector.trim(),
              selector_type: area.locator.selector_type as DocumentSelectorType,
            })),
          },
    [draft.url, draft.userAgent, draft.cookies, kind, valid],
  );
  const reading = useDocumentAreas(input);
  const read = reading.data && 'areas' in reading.data ? reading.data : undefined;
  const readProblem = reading.data && 'problem' in reading.data ? reading.data.problem : undefined;
  // What each valid area reads, by area id, from the answer to the same list of areas.
  const readings = new Map(
    input && read && read.areas.length === valid.length && !reading.isPlaceholderData
      ? valid.map((area, index) => [area.areaId, read.areas[index]] as const)
      : [],
  );

  const updateArea = (areaId: string, update: (area: AreaDraft) => AreaDraft) =>
    change((current) => ({
      ...current,
      areas: current.areas.map((area) => (area.areaId === areaId ? update(area) : area)),
    }));
  const setLocator = (areaId: string, selector: string, selectorType?: DocumentSelectorType) =>
    updateArea(areaId, (area) => ({
      ...area,
      locator: { ...area.locator, selector, selector_type: selectorType ?? area.locator.selector_type },
      content: '',
    }));
  const add = () =>
    change((current) => ({
      ...current,
      areas: [
        ...current.areas,
        newDocumentArea(
          kind,
          current.areas,
          t('wizard.areas.defaultLabel', { number: current.areas.length + 1 }),
        ),
      ],
    }));
  const usedByRules = (areaId: string) =>
    draft.rules.groups.some((group) => group.conditions.some((condition) => condition.areaId === areaId));
  const remove = (area: AreaDraft) => {
    if (usedByRules(area.areaId)) {
      setBlocked(area.areaId);
      return;
    }
    setBlocked('');
    change((current) => ({
      ...current,
      areas: current.areas.filter((entry) => entry.areaId !== area.areaId),
    }));
  };

  const missing = areas.filter((area) => readings.get(area.areaId)?.found === false);
  const next = () => {
    setTried(true);
    if (areas.length === 0 || problems.some((problem) => problem !== null)) return;
    if (readings.size !== areas.length || missing.length > 0) return;
    // What each area reads now is its data at registration.
    change((current) => ({
      ...current,
      areas: current.areas.map((area) => ({
        ...area,
        content: readings.get(area.areaId)?.text ?? area.content,
      })),
    }));
    onNext();
  };

  return (
    <div className="form wizard-form">
      <p className="lead">{t('wizard.document.lead', { kind: t(`wizard.contentKinds.${kind}`) })}</p>
      {document && document.detected_kind !== kind && (
        <p className="muted">
          {t('wizard.document.readAs', {
            kind: t(`wizard.contentKinds.${kind}`),
            detected: t(`wizard.contentKinds.${document.detected_kind}`),
          })}
        </p>
      )}
      {readProblem && <FormMessage tone="error" message={t('wizard.document.unreadable')} />}
      {areas.length === 0 && <p className="muted">{t('wizard.areas.none')}</p>}
      {areas.map((area, index) => {
        const id = `wizard-document-area-${area.areaId}`;
        const problem = problems[index];
        const areaReading = readings.get(area.areaId);
        const label = area.label || t('wizard.areas.defaultLabel', { number: index + 1 });
        const type = area.locator.selector_type as DocumentSelectorType;
        const error = problem
          ? t(`wizard.document.problems.${problem}`, { area: label, expression: area.locator.selector })
          : areaReading && !areaReading.found
            ? t('wizard.document.notFound', { area: label, expression: area.locator.selector })
            : undefined;
        return (
          <section
            key={area.areaId}
            className="panel area-card document-area"
            aria-labelledby={`${id}-title`}
          >
            <h3 id={`${id}-title`} className="area-card-title">
              {t('wizard.document.areaTitle', { number: index + 1, label })}
            </h3>
            <TextField
              id={`${id}-label`}
              label={t('wizard.document.label')}
              value={area.label}
              onChange={(value) => updateArea(area.areaId, (current) => ({ ...current, label: value }))}
            />
            {kind === 'pdf' && (
              <fieldset className="choice-group">
                <legend className="field-label">{t('wizard.document.pdfBy')}</legend>
                {(['pages', 'text'] as const).map((by) => (
                  <label key={by} className="checkbox">
                    <input
                      type="radio"
                      name={`${id}-by`}
                      checked={type === by}
                      onChange={() => setLocator(area.areaId, by === 'pages' ? '1' : '', by)}
                    />
                    {t(`wizard.document.by.${by}`)}
                  </label>
                ))}
              </fieldset>
            )}
            <TextField
              id={`${id}-expression`}
              label={t(`wizard.document.expression.${type}`)}
              hint={t(`wizard.document.hint.${type}`)}
              value={area.locator.selector}
              onChange={(value) => setLocator(area.areaId, value)}
              error={error}
            />
            <div className="document-reading">
              <p className="field-label" id={`${id}-reads`}>
                {t('wizard.document.reads')}
              </p>
              {areaReading?.found ? (
                <pre className="document-text">{areaReading.text}</pre>
              ) : (
                <p className="muted">
                  {problem ? '—' : reading.isFetching ? t('wizard.areas.reading') : '—'}
                </p>
              )}
            </div>
            <div className="button-row">
              <button
                type="button"
                className="button small"
                aria-label={t('wizard.document.removeNamed', { label })}
                onClick={() => remove(area)}
              >
                {t('wizard.document.remove')}
              </button>
            </div>
            {blocked === area.areaId && (
              <FormMessage tone="error" message={t('wizard.areas.deselectFailed')} />
            )}
          </section>
        );
      })}
      {areas.length < MAX_AREAS && (
        <div className="button-row">
          <button type="button" className="button" onClick={add}>
            {t('wizard.document.add')}
          </button>
        </div>
      )}
      {tried && areas.length === 0 && <FormMessage tone="error" message={t('wizard.areas.required')} />}
      {tried && missing.length > 0 && <FormMessage tone="error" message={t('wizard.document.fixAreas')} />}
      <StepButtons onBack={onBack} onNext={next} nextDisabled={reading.isFetching} />
    </div>
  );
}

/** The preview pane of a document: the start of its text, as the areas are written against. */
export function DocumentPreview({ document, kind }: { document: OpenedDocument; kind: DocumentKind }) {
  const { t } = useTranslation();
  return (
    <section
      className="preview-scroll document-preview"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
      tabIndex={0}
      aria-label={t('wizard.document.previewLabel', { kind: t(`wizard.contentKinds.${kind}`) })}
    >
      <p className="muted">
        {t('wizard.document.detected', { kind: t(`wizard.contentKinds.${document.detected_kind}`) })}
      </p>
      <pre className="document-text">{document.lines.join('\n')}</pre>
      {document.more_lines && <p className="muted">{t('wizard.document.moreLines')}</p>}
    </section>
  );
}
