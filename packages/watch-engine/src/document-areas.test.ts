import { describe, expect, it } from 'vitest';
import { documentAreaProblem, jsonPathProblem, parsePageRange } from './document-areas.ts';

describe('parsePageRange', () => {
  it.each([
    ['3', { first: 3, last: 3 }],
    ['2-3', { first: 2, last: 3 }],
    [' 2 - 3 ', { first: 2, last: 3 }],
    ['２〜３', { first: 2, last: 3 }],
    ['2–5', { first: 2, last: 5 }],
    ['2-', { first: 2, last: null }],
  ])('reads %j', (written, range) => {
    expect(parsePageRange(written)).toEqual(range);
  });

  it.each(['', '0', '3-2', 'a', '1,3', '-2', '1-2-3'])('refuses %j', (written) => {
    expect(parsePageRange(written)).toBeNull();
  });
});

describe('jsonPathProblem', () => {
  it.each([
    '$',
    '$.items[*].price',
    '$..name',
    '$.items[0]',
    '$.items[-1]',
    '$.items[0,2]',
    '$.items[1:3]',
    "$['商品'].価格",
    '$["a b"][0].c',
    '$.*',
    '$..[0]',
  ])('accepts %j', (path) => {
    expect(jsonPathProblem(path)).toBeNull();
  });

  it.each(['', 'items', '$[', '$.items[', '$..', '$.a b', "$['a]"])('refuses %j as not parsing', (path) => {
    expect(jsonPathProblem(path)).toBe('jsonpath_invalid');
  });

  it('refuses filters and script expressions, which would run the text as code', () => {
    expect(jsonPathProblem('$.items[?(@.price > 1)]')).toBe('jsonpath_script');
    expect(jsonPathProblem('$.items[(@.length-1)]')).toBe('jsonpath_script');
  });
});

describe('documentAreaProblem', () => {
  it('takes the selector types each kind reads', () => {
    expect(documentAreaProblem('pdf', 'pages', '1-2')).toBeNull();
    expect(documentAreaProblem('pdf', 'text', '配当予想')).toBeNull();
    expect(documentAreaProblem('json', 'jsonpath', '$.a')).toBeNull();
    expect(documentAreaProblem('xml', 'xpath', '//item/title')).toBeNull();
    expect(documentAreaProblem('json', 'xpath', '//a')).toBe('selector_type_invalid');
    expect(documentAreaProblem('pdf', 'css', '#a')).toBe('selector_type_invalid');
  });

  it('names what is wrong with the expression', () => {
    expect(documentAreaProblem('pdf', 'pages', '3-1')).toBe('page_range_invalid');
    expect(documentAreaProblem('pdf', 'text', '  ')).toBe('text_required');
    expect(documentAreaProblem('json', 'jsonpath', '$.a[')).toBe('jsonpath_invalid');
    expect(documentAreaProblem('xml', 'xpath', '//item[')).toBe('xpath_invalid');
  });
});
