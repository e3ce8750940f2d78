/// <reference types="node" />
// The watch engine's check runs here as the server runs it, with its Node imports.
import { validateAreaOptions } from '@mimamori/watch-engine';
import { DEFAULT_AREA_OPTIONS } from '@mimamori/watch-engine/area-options';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { en, ja } from '../i18n/catalogue.ts';
import { optionProblemMessage } from './option-problem.ts';
import type { AreaDraft } from './wizard-draft.ts';

// Register refuses an area's options with the watch engine's validateAreaOptions (through the
// target service); the content step runs the same check as each option is typed (through the
// preview's area reading). Here every refusal of a pattern, word or selector gets a message at
// its step that names the area and what was typed, in both languages.

const regexCode = import.meta.glob<string>(
  '../../../packages/watch-engine/src/python-regex/regex-problem.ts',
  {
    query: '?raw',
    import: 'default',
    eager: true,
  },
);

const area = (typed: { regexes?: string[]; words?: string[]; elements?: string[] }): AreaDraft => ({
  areaId: 'a1',
  label: 'Sencha price',
  locator: { selector: '#price', selector_type: 'css', frame_selector: '', frame_selector_type: '' },
  box: null,
  frameKey: '',
  options: { ...DEFAULT_AREA_OPTIONS, excludeElements: typed.elements ?? [] },
  wordsText: (typed.words ?? []).join('\n'),
  regexesText: (typed.regexes ?? []).join('\n'),
  content: '¥1,280',
  httpSuffices: null,
});

/** Patterns the server refuses, one for each reason it gives. */
const refusedRegexes = [
  '(?<=a)b',
  '(a)\\1',
  '(?>a)',
  'a*+',
  '(?(1)a|b)',
  '(?L)a',
  '(a',
  'a{1001}',
  '',
  'x'.repeat(5_000),
];

describe('option refusals at the content step', () => {
  const translators = Promise.all(
    (['ja', 'en'] as const).map(async (lng) => {
      const instance = i18next.createInstance();
      await instance.init({
        resources: { ja: { translation: ja }, en: { translation: en } },
        lng,
        interpolation: { escapeValue: false },
      });
      return [lng, instance.t] as const;
    }),
  );

  it('names the area and the pattern, with the reason, for every regex refusal the server gives', async () => {
    const seen = new Set<string>();
    for (const pattern of refusedRegexes) {
      const draft = area({ regexes: ['ok', pattern === '' ? ' ' : pattern] });
      const checked = validateAreaOptions({ excludeRegexes: ['ok', pattern] });
      expect(checked.ok, pattern).toBe(false);
      if (checked.ok) continue;
      const [problem] = checked.problems;
      if (!problem) continue;
      seen.add(problem.code);
      for (const [lng, t] of await translators) {
        const message = optionProblemMessage(problem, draft, 2, t);
        expect(message.field).toBe('regexes');
        expect(message.text).toContain(lng === 'ja' ? 'エリア2「Sencha price」' : 'Area 2 “Sencha price”');
        if (pattern.trim() !== '') expect(message.text).toContain(pattern);
        const reason = t(
          `wizard.optionProblems.reasons.${problem.code}` as 'wizard.optionProblems.reasons.invalid',
        );
        expect(reason, `${lng} ${problem.code}`).not.toContain('optionProblems');
        expect(message.text).toContain(reason);
      }
    }
    // Every code the regex translator can give was produced above, so none goes without a message.
    const codes = [...(Object.values(regexCode)[0] ?? '').matchAll(/\| '([a-z_]+)'/g)].map(
      (match) => match[1],
    );
    expect(codes.length).toBeGreaterThan(8);
    expect(codes.filter((code) => !seen.has(code ?? ''))).toEqual([]);
  });

  it('puts a refused word at the words field and a refused selector under the area, naming them', async () => {
    const byLanguage = new Map(await translators);
    const tJa = byLanguage.get('ja');
    const tEn = byLanguage.get('en');
    if (!tJa || !tEn) throw new Error('no translator');
    const words = validateAreaOptions({ excludeWords: ['ok', 'x'.repeat(300)] });
    const wordProblem = words.ok ? undefined : words.problems[0];
    expect(wordProblem?.code).toBe('too_long');
    if (!wordProblem) return;
    const message = optionProblemMessage(wordProblem, area({ words: ['ok', 'x'.repeat(300)] }), 1, tEn);
    expect(message).toEqual({
      field: 'words',
      text: `Area 1 “Sencha price”: the excluded word “${'x'.repeat(300)}” is too long.`,
    });
    const elements = validateAreaOptions({ excludeElements: ['p['] });
    const elementProblem = elements.ok ? undefined : elements.problems[0];
    if (!elementProblem) throw new Error('p[ was accepted');
    expect(optionProblemMessage(elementProblem, area({ elements: ['p['] }), 1, tJa)).toEqual({
      field: 'elements',
      text: 'エリア1「Sencha price」: 除外する要素「p[」はCSSセレクターとして正しくありません。',
    });
  });
});
