import type { TFunction } from 'i18next';
import { type AreaDraft, lines } from './wizard-draft.ts';

/** The options field a refusal is about, so that field is marked and the message sits at it. */
export type OptionField = 'regexes' | 'words' | 'elements' | 'other';

const FIELDS: Record<string, OptionField> = {
  excludeRegexes: 'regexes',
  excludeWords: 'words',
  excludeElements: 'elements',
};

/** The lines the person typed that the list at `path` was made from ('excludeRegexes[1]'). */
function entries(area: AreaDraft, list: string): readonly string[] {
  if (list === 'excludeRegexes') return lines(area.regexesText);
  if (list === 'excludeWords') return lines(area.wordsText);
  if (list === 'excludeElements') return area.options.excludeElements ?? [];
  return [];
}

/**
 * The message for an area option the watch engine refused (the same check Register makes), naming
 * the area by number and name and the pattern, word or selector as typed, with why it is refused.
 */
export function optionProblemMessage(
  problem: { path: string; code: string },
  area: AreaDraft,
  number: number,
  t: TFunction,
): { field: OptionField; text: string } {
  const [, list = '', index] = /^([A-Za-z]+)(?:\[(\d+)\])?/.exec(problem.path) ?? [];
  const field = FIELDS[list] ?? 'other';
  const pattern = index === undefined ? undefined : entries(area, list)[Number(index)];
  const reasonKey = `wizard.optionProblems.reasons.${problem.code}`;
  const reason = t(reasonKey, { defaultValue: t('wizard.optionProblems.reasons.invalid') });
  const text =
    pattern === undefined || field === 'other'
      ? t(`wizard.optionProblems.${field === 'other' ? 'other' : 'list'}`, {
          number,
          label: area.label,
          reason,
        })
      : t(`wizard.optionProblems.${field}`, { number, label: area.label, pattern, reason });
  return { field, text };
}
