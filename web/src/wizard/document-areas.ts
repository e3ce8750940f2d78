import { DEFAULT_AREA_OPTIONS } from '@mimamori/watch-engine/area-options';
import {
  type ContentKind,
  type DocumentAreaProblem,
  documentAreaProblem,
} from '@mimamori/watch-engine/document-areas';
import type { AreaDraft } from './wizard-draft.ts';

export type DocumentKind = Exclude<ContentKind, 'page'>;
export type DocumentSelectorType = 'pages' | 'text' | 'jsonpath' | 'xpath';

/** How a new area of each kind is named at first: a PDF by its pages, JSON and XML by a path. */
export const FIRST_SELECTOR: Record<DocumentKind, { type: DocumentSelectorType; selector: string }> = {
  pdf: { type: 'pages', selector: '1' },
  json: { type: 'jsonpath', selector: '$' },
  xml: { type: 'xpath', selector: '/*' },
};

/** A new area of a document, numbered after the others. */
export function newDocumentArea(kind: DocumentKind, areas: readonly AreaDraft[], label: string): AreaDraft {
  const taken = new Set(areas.map((area) => area.areaId));
  let number = areas.length + 1;
  while (taken.has(`area${number}`)) number += 1;
  const { type, selector } = FIRST_SELECTOR[kind];
  return {
    areaId: `area${number}`,
    label,
    locator: { selector, selector_type: type, frame_selector: '', frame_selector_type: '' },
    box: null,
    frameKey: '',
    options: DEFAULT_AREA_OPTIONS,
    wordsText: '',
    regexesText: '',
    content: '',
    httpSuffices: true,
  };
}

/** Why an area's expression cannot be read, as the target service would refuse it; null when it can. */
export function areaProblem(kind: DocumentKind, area: AreaDraft): DocumentAreaProblem | null {
  return documentAreaProblem(kind, area.locator.selector_type, area.locator.selector.trim());
}
