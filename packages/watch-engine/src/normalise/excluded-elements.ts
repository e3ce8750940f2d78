import { compile, selectAll } from 'css-select';
import render from 'dom-serializer';
import { type ChildNode, type Element, isTag } from 'domhandler';
import { removeElement } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { AREA_OPTION_LIMITS } from '../area-options.ts';
import type { ValidationProblem } from '../validation.ts';

/**
 * Why an excluded element's selector is refused, or null when it can be used. The selector runs
 * both here (on the area's markup) and in the crawler's browser (to mask screenshots), so only what
 * css-select compiles is accepted; a browser knows every selector css-select does.
 */
export function elementSelectorProblem(selector: string): Omit<ValidationProblem, 'path'> | null {
  if (selector.trim() === '') return { code: 'required', message: 'an excluded element has no selector' };
  if (selector.length > AREA_OPTION_LIMITS.selectorLength) {
    return {
      code: 'too_long',
      message: `an excluded element's selector is longer than ${AREA_OPTION_LIMITS.selectorLength} characters`,
    };
  }
  try {
    compile(selector);
    return null;
  } catch {
    return { code: 'invalid_selector', message: `"${selector}" is not a CSS selector` };
  }
}

/**
 * The area's markup without the elements the area excludes (and everything inside them), so their
 * text is not compared. `:scope` in a selector is the area's own element, the first element of the
 * markup. Markup with nothing to exclude is returned as it was.
 */
export function withoutExcludedElements(html: string, selectors: readonly string[]): string {
  if (selectors.length === 0) return html;
  const document = parseDocument(html);
  const root = document.children.find(isTag) as Element | undefined;
  if (!root) return html;
  const context = [root];
  const excluded = new Set<ChildNode>();
  for (const selector of selectors) {
    // Validated when stored; a selector that no longer compiles excludes nothing rather than failing the check.
    try {
      for (const element of selectAll(selector, context, { context })) excluded.add(element);
    } catch {}
  }
  if (excluded.size === 0) return html;
  for (const element of excluded) removeElement(element);
  return render(document, { decodeEntities: false });
}
