import { AREA_OPTION_LIMITS, type AreaOptions, DEFAULT_AREA_OPTIONS } from './area-options.ts';
import { elementSelectorProblem } from './normalise/excluded-elements.ts';
import { validatePythonRegex } from './python-regex/user-regex.ts';
import { isRecord, type Validated, type ValidationProblem } from './validation.ts';

const FLAGS = [
  'stripTags',
  'excludeDates',
  'excludeTimes',
  'excludeNumbers',
  'addOnly',
  'allowSameWords',
] as const;

/**
 * Checks area options from the registration API. Missing fields take their defaults; wrong types, too
 * many or too long entries, and patterns that cannot run on RE2 are refused with a message each.
 */
export function validateAreaOptions(input: unknown): Validated<AreaOptions> {
  if (!isRecord(input)) {
    return {
      ok: false,
      problems: [{ path: '', code: 'invalid_type', message: 'area options must be an object' }],
    };
  }
  const problems: ValidationProblem[] = [];
  const flag = (name: (typeof FLAGS)[number]): boolean => {
    const value = input[name];
    if (value === undefined) return DEFAULT_AREA_OPTIONS[name];
    if (typeof value === 'boolean') return value;
    problems.push({ path: name, code: 'invalid_type', message: `${name} must be true or false` });
    return false;
  };
  const [stripTags, excludeDates, excludeTimes, excludeNumbers, addOnly, allowSameWords] = FLAGS.map(flag);
  const excludeWords = stringList(
    input.excludeWords,
    'excludeWords',
    AREA_OPTION_LIMITS.excludeWords,
    problems,
  );
  for (const [index, word] of excludeWords.entries()) {
    if (word.trim() === '') {
      problems.push({
        path: `excludeWords[${index}]`,
        code: 'required',
        message: 'an excluded word is empty',
      });
    } else if (word.length > AREA_OPTION_LIMITS.wordLength) {
      problems.push({
        path: `excludeWords[${index}]`,
        code: 'too_long',
        message: `an excluded word is longer than ${AREA_OPTION_LIMITS.wordLength} characters`,
      });
    }
  }
  const excludeRegexes = stringList(
    input.excludeRegexes,
    'excludeRegexes',
    AREA_OPTION_LIMITS.excludeRegexes,
    problems,
  );
  for (const [index, pattern] of excludeRegexes.entries()) {
    const checked = validatePythonRegex(pattern);
    if (!checked.ok)
      problems.push({ path: `excludeRegexes[${index}]`, code: checked.code, message: checked.message });
  }
  const excludeSameAsPast = pastUpdates(input.excludeSameAsPast, problems);
  const excludeElements = stringList(
    input.excludeElements,
    'excludeElements',
    AREA_OPTION_LIMITS.excludeElements,
    problems,
  );
  for (const [index, selector] of excludeElements.entries()) {
    const problem = elementSelectorProblem(selector);
    if (problem) problems.push({ path: `excludeElements[${index}]`, ...problem });
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      stripTags: stripTags as boolean,
      excludeDates: excludeDates as boolean,
      excludeTimes: excludeTimes as boolean,
      excludeNumbers: excludeNumbers as boolean,
      addOnly: addOnly as boolean,
      excludeWords,
      excludeRegexes,
      allowSameWords: allowSameWords as boolean,
      excludeSameAsPast,
      excludeElements,
    },
  };
}

function stringList(value: unknown, path: string, max: number, problems: ValidationProblem[]): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    problems.push({ path, code: 'invalid_type', message: `${path} must be a list of strings` });
    return [];
  }
  if (value.length > max)
    problems.push({ path, code: 'too_many', message: `${path} has more than ${max} entries` });
  return value;
}

function pastUpdates(value: unknown, problems: ValidationProblem[]): AreaOptions['excludeSameAsPast'] {
  if (value === undefined) return DEFAULT_AREA_OPTIONS.excludeSameAsPast;
  const path = 'excludeSameAsPast';
  if (!isRecord(value) || typeof value.enabled !== 'boolean' || typeof value.count !== 'number') {
    problems.push({
      path,
      code: 'invalid_type',
      message: `${path} must be { enabled: boolean, count: number }`,
    });
    return DEFAULT_AREA_OPTIONS.excludeSameAsPast;
  }
  const { enabled, count } = value;
  const max = AREA_OPTION_LIMITS.pastUpdates;
  if (!Number.isInteger(count) || count < (enabled ? 1 : 0) || count > max) {
    problems.push({
      path: `${path}.count`,
      code: 'out_of_range',
      message: `the number of past updates must be a whole number from 1 to ${max}`,
    });
  }
  return { enabled, count };
}
