import { describe, expect, test } from 'vitest';
import { DEFAULT_AREA_OPTIONS } from '../area-options.ts';
import { formatDiffText } from '../diff/format-diff-text.ts';
import { evaluateCheck } from '../evaluate-check.ts';
import { validateAreaOptions } from '../validate-area-options.ts';
import { elementSelectorProblem, withoutExcludedElements } from './excluded-elements.ts';
import { extractAreaContent } from './extract-area-content.ts';

const card = (stamp: string, price: string) =>
  `<div id="card"><h2>Sencha 100g</h2><p id="price">${price}</p><p>Updated ${stamp}</p></div>`;

/** What the browser's innerText would read: the excluded text is in it, so it cannot be used. */
const innerText = (stamp: string, price: string) => `Sencha 100g\n${price}\nUpdated ${stamp}`;

function check(before: [string, string], after: [string, string], excludeElements: string[]) {
  return evaluateCheck({
    areas: [
      {
        areaId: 'area-1',
        options: { ...DEFAULT_AREA_OPTIONS, excludeElements },
        previous: { html: card(...before), text: innerText(...before) },
        current: { html: card(...after), text: innerText(...after) },
      },
    ],
  });
}

describe('excluded elements', () => {
  test("an excluded element's change is not compared, even though the browser's text holds it", () => {
    const result = check(['10:00', '¥1,280'], ['10:05', '¥1,280'], [':scope > p:nth-of-type(2)']);
    expect(result.kind).toBe('no_change');
    expect(result.areas[0]).toMatchObject({ outcome: 'unchanged', text: 'Sencha 100g\n¥1,280' });
  });

  test('a change beside the excluded element is still an update, and only it is in the diff', () => {
    const result = check(['10:00', '¥1,280'], ['10:05', '¥1,380'], [':scope > p:nth-of-type(2)']);
    expect(result.kind).toBe('update');
    const first = result.areas[0];
    expect(first?.outcome).toBe('updated');
    if (first?.outcome !== 'updated') return;
    expect(formatDiffText(first.diff, 0)).toBe('- ¥1,280\n+ ¥1,380');
    expect(first.text).toBe('Sencha 100g\n¥1,380');
  });

  test('without exclusions the same change is an update (the test above can fail)', () => {
    expect(check(['10:00', '¥1,280'], ['10:05', '¥1,280'], []).kind).toBe('update');
  });

  test('an id selector and a descendant selector exclude the element with everything inside it', () => {
    expect(
      withoutExcludedElements('<ul><li id="a">A <b>bold</b></li><li>B</li><li>C <i>x</i></li></ul>', [
        '#a',
        'li i',
      ]),
    ).toBe('<ul><li>B</li><li>C </li></ul>');
  });

  test('markup text is read from the markup with the element cut out, tags kept when asked', () => {
    const markup = extractAreaContent({ html: card('10:00', '¥1'), text: 'ignored' }, false, ['#price']);
    expect(markup.trim().split(/\n+/)).toEqual([
      '<div id="card">',
      '<h2>Sencha 100g</h2>',
      '<p>Updated 10:00</p>',
      '</div>',
    ]);
  });

  test('a selector that matches nothing leaves the markup as it was', () => {
    const html = card('10:00', '¥1,280');
    expect(withoutExcludedElements(html, ['.none'])).toBe(html);
  });

  test('selectors that are no CSS, empty or too long are refused by the options check, naming the entry', () => {
    expect(elementSelectorProblem('p:nth-of-type(2)')).toBeNull();
    expect(elementSelectorProblem('p[')?.code).toBe('invalid_selector');
    expect(elementSelectorProblem(' ')?.code).toBe('required');
    expect(elementSelectorProblem(`#${'a'.repeat(600)}`)?.code).toBe('too_long');
    const checked = validateAreaOptions({ excludeElements: ['#ok', 'div >> p'] });
    expect(checked.ok ? [] : checked.problems.map((problem) => [problem.path, problem.code])).toEqual([
      ['excludeElements[1]', 'invalid_selector'],
    ]);
    const many = validateAreaOptions({ excludeElements: Array.from({ length: 21 }, (_, i) => `#e${i}`) });
    expect(many.ok).toBe(false);
    expect(validateAreaOptions({}).ok && validateAreaOptions({})).toMatchObject({
      value: { excludeElements: [] },
    });
  });
});
