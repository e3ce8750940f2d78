import { describe, expect, it } from 'vitest';
import { selectorParses } from './selector-syntax.ts';

describe('selectorParses', () => {
  it.each([
    ['#price > span.value', 'css', true],
    ['div:nth-child(2n+1) a[href^="https"]', 'css', true],
    ['div[', 'css', false],
    ['a >> b', 'css', false],
    ['//table/tbody/tr[2]/td[contains(@class, "price")]', 'xpath', true],
    ['(//h2)[1]/following-sibling::p', 'xpath', true],
    ['//div[@id=', 'xpath', false],
    ['//*[', 'xpath', false],
  ] as const)('%s (%s) parses: %s', (selector, type, parses) => {
    expect(selectorParses(selector, type)).toBe(parses);
  });
});
