import { DEFAULT_AREA_OPTIONS } from '@mimamori/watch-engine/area-options';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PreviewElement } from '../api/preview.ts';
import { useErrorText } from '../forms/use-error-text.ts';
import { useEvaluateArea } from '../hooks/use-preview.ts';
import { usesArea } from '../rules/rule-groups.ts';
import { boxContains, enclosingArea, exclusionSelector, listedText } from './area-boxes.ts';
import { callProblemMessage } from './preview-problem.ts';
import { type AreaDraft, newAreaLabel, nextAreaId } from './wizard-draft.ts';
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
  // The area whose elements a choice on the picture now excludes (docs/product.md#areas).
  const [excluding, setExcludingId] = useState<string>();
  const excludingArea = draft.areas.find((area) => area.areaId === excluding);

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

  const setExcluding = (areaId: string | undefined) => {
    setExcludingId(areaId);
    const area = draft.areas.find((entry) => entry.areaId === areaId);
    setMessage(
      area ? { tone: 'success', text: t('wizard.areas.excludingStarted', { label: area.label }) } : undefined,
    );
  };

  /**
   * Excludes an element inside the area being edited: its text is not compared and it is masked in
   * screenshots. The area's box is where the preview drew it, or, for a stored area, where its
   * element is on this picture.
   */
  const exclude = (area: AreaDraft, element: PreviewElement) => {
    const elements = preview?.render.elements ?? [];
    const areaBox = area.box ?? elements.find((entry) => entry.css === area.locator.selector)?.box;
    const inside =
      areaBox !== undefined &&
      element.css !== area.locator.selector &&
      area.frameKey === (preview ? frameKeyOf(preview.render) : '') &&
      boxContains(areaBox, element.box);
    if (area.locator.selector_type !== 'css' || !inside) {
      setMessage({ tone: 'error', text: t('wizard.areas.excludeOutside', { label: area.label }) });
      return;
    }
    const selector = exclusionSelector(area.locator.selector, element.css);
    const text = listedText(element).slice(0, 40) || element.tag;
    change((current) => ({
      ...current,
      areas: current.areas.map((entry) =>
        entry.areaId === area.areaId && !(entry.options.excludeElements ?? []).includes(selector)
          ? {
              ...entry,
              options: {
                ...entry.options,
                excludeElements: [...(entry.options.excludeElements ?? []), selector],
              },
            }
          : entry,
      ),
    }));
    setMessage({ tone: 'success', text: t('wizard.areas.excludedElement', { text, label: area.label }) });
  };

  const unexclude = (areaId: string, selector: string) => {
    change((current) => ({
      ...current,
      areas: current.areas.map((entry) =>
        entry.areaId === areaId
          ? {
              ...entry,
              options: {
                ...entry.options,
                excludeElements: (entry.options.excludeElements ?? []).filter((kept) => kept !== selector),
              },
            }
          : entry,
      ),
    }));
    setMessage({ tone: 'success', text: t('wizard.areas.exclusionRemoved') });
  };

  /** A choice on the picture: a new area, or an exclusion while an area's exclusions are edited. */
  const choose = (element: PreviewElement) => {
    if (excludingArea) exclude(excludingArea, element);
    else pick(element);
  };

  /** A deselected area may not leave a notification rule pointing at nothing. */
  const deselect = (areaId: string) => {
    const area = draft.areas.find((entry) => entry.areaId === areaId);
    if (!area || usesArea(draft.rules, areaId)) {
      setMessage({ tone: 'error', text: t('wizard.areas.deselectFailed') });
      return;
    }
    if (excluding === areaId) setExcludingId(undefined);
    change((current) => ({ ...current, areas: current.areas.filter((entry) => entry.areaId !== areaId) }));
    setMessage({ tone: 'success', text: t('wizard.areas.deselected', { label: area.label }) });
  };

  return {
    pick,
    choose,
    deselect,
    excludingArea,
    setExcluding,
    unexclude,
    message,
    pending: evaluate.isPending,
  };
}

export type AreaSelection = ReturnType<typeof useAreaSelection>;
