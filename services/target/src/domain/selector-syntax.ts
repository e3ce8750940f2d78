import { parse as parseCss } from 'css-what';
import xpath from 'xpath';

export type SelectorType = 'css' | 'xpath';

// xpath ships `parse` (the expression parser its `select` uses) without declaring it.
const parseXPath = (xpath as unknown as { parse(expression: string): unknown }).parse;

/**
 * Whether a selector would be understood by the crawler's browser: CSS read by css-what (the
 * parser cheerio uses), XPath by the xpath package's parser. Catches typos at registration
 * instead of as "element not found" on every check.
 */
export function selectorParses(selector: string, type: SelectorType): boolean {
  try {
    if (type === 'css') parseCss(selector);
    else parseXPath(selector);
    return true;
  } catch {
    return false;
  }
}
