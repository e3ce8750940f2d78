import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  type AreaOptions,
  type CheckResult,
  DEFAULT_AREA_OPTIONS,
  evaluateCheck,
  extractAreaContent,
  type NotificationRules,
  normaliseArea,
  RULE_OPERATORS,
  validateAreaOptions,
  validatePythonRegex,
  validateRuleGroups,
} from './index.ts';

// What a watched page, or a person typing options and rules, can hand the engine: any text, any
// markup, any JSON. Only the engine's public API is used, so its insides may change freely.
const RUNS = { numRuns: 200 };

const anyText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({
    unit: fc.constantFrom('<', '>', '/', '"', '=', 'a', 'p', ' ', '\n', '&', ';', '#', 'x'),
    maxLength: 300,
  }),
);

const anyRegex = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom(
    '(a+)+$',
    '(?i)sale',
    String.raw`\d+`,
    '[',
    '(?P<n>a)(?P=n)',
    String.raw`\N{DIGIT ONE}`,
    '^$',
    '.*',
  ),
);

/** Options as validation lets them through: only such options ever reach a comparison. */
const validOptions: fc.Arbitrary<AreaOptions> = fc
  .record({
    stripTags: fc.boolean(),
    excludeDates: fc.boolean(),
    excludeTimes: fc.boolean(),
    excludeNumbers: fc.boolean(),
    addOnly: fc.boolean(),
    excludeWords: fc.array(fc.string({ minLength: 1, maxLength: 12 }), { maxLength: 4 }),
    excludeRegexes: fc.array(anyRegex, { maxLength: 3 }),
    allowSameWords: fc.boolean(),
    excludeSameAsPast: fc.record({ enabled: fc.boolean(), count: fc.integer({ min: 1, max: 5 }) }),
  })
  .map((options) => {
    const checked = validateAreaOptions(options);
    return checked.ok ? checked.value : DEFAULT_AREA_OPTIONS;
  });

const anyRules: fc.Arbitrary<NotificationRules> = fc.record({
  combine: fc.constantFrom('and', 'or'),
  groups: fc.array(
    fc.record({
      combine: fc.constantFrom('and', 'or'),
      conditions: fc.array(
        fc.record({
          areaId: fc.constantFrom('a', 'gone'),
          operand: fc.constantFrom('all', 'new', 'old'),
          operator: fc.constantFrom(...RULE_OPERATORS),
          value: fc.oneof(anyText, anyRegex, fc.constantFrom('1,000', '１０００', '12万', '5%', '-3.5')),
        }),
        { maxLength: 3 },
      ),
    }),
    { maxLength: 3 },
  ),
});

function check(previous: string, current: string, options: AreaOptions, rules?: NotificationRules) {
  return evaluateCheck({
    areas: [
      {
        areaId: 'a',
        options,
        previous: { html: previous, text: previous },
        current: { html: current, text: current },
      },
    ],
    ...(rules ? { rules } : {}),
  });
}

/** evaluateCheck catches its own failures; one that had to is a crash all the same. */
const crashed = (result: CheckResult) => result.kind === 'error' && result.reason === 'engine_failure';

describe('the watch engine on hostile input', () => {
  test('validation answers any JSON for options and rules without throwing', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (options, rules) => {
        expect(typeof validateAreaOptions(options).ok).toBe('boolean');
        expect(typeof validateRuleGroups(rules, ['a']).ok).toBe('boolean');
      }),
      RUNS,
    );
  });

  test('a user pattern is accepted or refused, never thrown', () => {
    fc.assert(
      fc.property(anyRegex, (pattern) => {
        expect(typeof validatePythonRegex(pattern)).toBe('object');
      }),
      RUNS,
    );
  });

  test('reading and normalising any markup never throws', () => {
    fc.assert(
      fc.property(anyText, validOptions, (markup, options) => {
        const text = extractAreaContent({ html: markup }, options.stripTags);
        expect(typeof text).toBe('string');
        expect(typeof normaliseArea(text, options).text).toBe('string');
      }),
      RUNS,
    );
  });

  test('comparing any two versions under any valid options and rules never crashes', () => {
    fc.assert(
      fc.property(anyText, anyText, validOptions, anyRules, (previous, current, options, rules) => {
        expect(crashed(check(previous, current, options, rules))).toBe(false);
      }),
      RUNS,
    );
  });

  test('a change only in excluded text never notifies', () => {
    const word = fc.constantFrom('在庫あり', 'price', '東京', 'item', '新着', 'news');
    const line = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));
    const advert = fc.string({ unit: fc.constantFrom(...'abcxyz0189'), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(fc.nat(), advert, fc.boolean()), { maxLength: 6 }),
        anyRules,
        (lines, inserts, rules) => {
          // The excluded word and the excluded pattern come and go between the versions.
          const withExcluded = (which: boolean) => {
            const copy = [...lines];
            for (const [at, text, excludedWord] of inserts) {
              const index = at % copy.length;
              const token = excludedWord
                ? 'SALE'
                : `[ad:${which ? text : text.split('').reverse().join('')}]`;
              if (which || !excludedWord) copy[index] = `${copy[index]} ${token}`;
            }
            return copy.join('\n');
          };
          const options: AreaOptions = {
            ...DEFAULT_AREA_OPTIONS,
            excludeWords: ['SALE'],
            excludeRegexes: [String.raw`\[ad:[^\]]*\]`],
          };
          const result = check(withExcluded(false), withExcluded(true), options, rules);
          expect(result.kind === 'update' && result.notify).toBe(false);
          expect(result.kind).not.toBe('update');
        },
      ),
      RUNS,
    );
  });
});
