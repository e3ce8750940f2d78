import { DEFAULT_AREA_OPTIONS } from '@mimamori/watch-engine/area-options';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PreviewElement } from '../api/preview.ts';
import { useErrorText } from '../forms/use-error-text.ts';
import { useEvaluateArea } from '../hooks/use-preview.ts';
import { usesArea } from '../rules/rule-groups.ts';
import { enclosingArea } from './area-boxes.ts';
import { callProblemMessage } from './preview-problem.ts';
import { newAreaLabel, nextAreaId } from './wizard-draft.ts';
import { frameKeyOf, type StepProps } from './wizard-step.ts';

export type SelectionMessage = { tone: 'error' | 'success'; text: string };

/**
 * Designating areas (step 3): a picked element is refused when it lies inside an area already
 * designated (docs/product.md#areas); otherwise the preview reads it and it becomes an area with its text.
 */
export function useAreaSelection({
  draft,
  change,
  preview,
  onPreviewExpired,
}: Pick<StepProps, 'draft' | 'change' | 'preview' | 'onPreviewExpired'>) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const evaluate = useEvaluateArea();
  const [message, setMessage] = useState<SelectionMessage>();

  const pick = (element: PreviewElement) => {
    if (!preview || evaluate.isPending) return;
    const frameKey = frameKeyOf(preview.render);
    const inside = enclosingArea(draft.areas, element.box, frameKey);
    if (inside) {
      setMessage({ tone: 'error', text: t('wizard.areas.insideArea', { label: inside.label }) });
      return;
    }
    const frame = preview.render.frame;
    const locator = {
      selector: element.css,
      selector_type: 'css' as const,
      frame_selector: frame?.selector ?? '',
      frame_selector_type: frame ? frame.selector_type : ('' as const),
    };
    setMessage(undefined);
    evaluate.mutate(
      { sessionId: preview.sessionId, area: locator },
      {
        onSuccess: (reading) => {
          if (!reading.found) {
            setMessage({ tone: 'error', text: t('wizard.problems.elementNotFound') });
            return;
          }
          change((current) => {
            const areaId = nextAreaId(current.areas);
            // A name that stays true: what the page calls the element (the price's product), never
            // the area's text (a price changes, which is why it is watched).
            const label = newAreaLabel(reading.name, current.areas, (number) =>
              t('wizard.areas.defaultLabel', { number }),
            );
            return {
              ...current,
              areas: [
                ...current.areas,
                {
                  areaId,
                  label,
                  locator,
                  box: element.box,
                  frameKey,
                  options: DEFAULT_AREA_OPTIONS,
                  wordsText: '',
                  regexesText: '',
                  content: reading.text,
                  httpSuffices: reading.http_suffices,
                },
              ],
            };
          });
          setMessage({ tone: 'success', text: t('wizard.areas.added') });
        },
        onError: (error) => {
          const problem = callProblemMessage(error);
          if (problem === 'previewExpired') onPreviewExpired();
          setMessage({ tone: 'error', text: problem ? t(`wizard.problems.${problem}`) : errorText(error) });
        },
      },
    );
  };

  /** A deselected area may not leave a notification rule pointing at nothing. */
  const deselect = (areaId: string) => {
    const area = draft.areas.find((entry) => entry.areaId === areaId);
    if (!area || usesArea(draft.rules, areaId)) {
      setMessage({ tone: 'error', text: t('wizard.areas.deselectFailed') });
      return;
    }
    change((current) => ({ ...current, areas: current.areas.filter((entry) => entry.areaId !== areaId) }));
    setMessage({ tone: 'success', text: t('wizard.areas.deselected', { label: area.label }) });
  };

  return { pick, deselect, message, pending: evaluate.isPending };
}

export type AreaSelection = ReturnType<typeof useAreaSelection>;
