import { describe, expect, test } from 'vitest';
import { DEFAULT_AREA_OPTIONS } from './area-options.ts';
import { validateAreaOptions } from './validate-area-options.ts';

describe('validateAreaOptions', () => {
  test('accepts full options and fills missing fields with defaults', () => {
    const options = {
      ...DEFAULT_AREA_OPTIONS,
      excludeRegexes: [String.raw`\d+件`],
      excludeSameAsPast: { enabled: true, count: 3 },
    };
    expect(validateAreaOptions(options)).toEqual({ ok: true, value: options });
    expect(validateAreaOptions({ addOnly: true })).toEqual({
      ok: true,
      value: { ...DEFAULT_AREA_OPTIONS, addOnly: true },
    });
  });

  test('names every problem with its path', () => {
    const result = validateAreaOptions({
      stripTags: 'yes',
      excludeWords: ['ok', '  ', 'x'.repeat(201)],
      excludeRegexes: ['(?=a)', '(a)\\1'],
      excludeSameAsPast: { enabled: true, count: 0 },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => [p.path, p.code])).toEqual([
      ['stripTags', 'invalid_type'],
      ['excludeWords[1]', 'required'],
      ['excludeWords[2]', 'too_long'],
      ['excludeRegexes[0]', 'unsupported_lookaround'],
      ['excludeRegexes[1]', 'unsupported_backreference'],
      ['excludeSameAsPast.count', 'out_of_range'],
    ]);
  });

  test('refuses lists that are too long or not lists of strings', () => {
    const many = validateAreaOptions({ excludeRegexes: Array.from({ length: 21 }, () => 'a') });
    expect(many.ok === false && many.problems[0]?.code).toBe('too_many');
    const wrong = validateAreaOptions({ excludeWords: 'sale' });
    expect(wrong.ok === false && wrong.problems[0]?.code).toBe('invalid_type');
    expect(validateAreaOptions(null).ok).toBe(false);
  });
});
