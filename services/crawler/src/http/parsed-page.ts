import { visibleText } from '@mimamori/watch-engine/visible-text';
import { selectOne } from 'css-select';
import render from 'dom-serializer';
import type { Document, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { parseHTML } from 'linkedom';
import xpath from 'xpath';
import type { Locator } from '../domain/page-fetcher.ts';

export interface LocatedElement {
  html: string;
  text: string;
  /** The element's `src`, for locating an iframe's document. */
  src?: string;
}

export class InvalidSelectorError extends Error {
  override readonly name = 'InvalidSelectorError';
}

/**
 * One served HTML document, parsed on first use: htmlparser2 with css-select for CSS
 * selectors (the fast path), and linkedom's DOM for XPath, which the xpath package evaluates
 * with HTML semantics (unprefixed names match HTML elements).
 */
export class ParsedPage {
  #document: Document | undefined;
  #dom: ReturnType<typeof parseHTML>['document'] | undefined;

  constructor(readonly html: string) {}

  /** The first element the locator (without its frame) matches, or null. */
  locate(locator: Pick<Locator, 'selector' | 'selectorType'>): LocatedElement | null {
    return locator.selectorType === 'xpath' ? this.#byXpath(locator.selector) : this.#byCss(locator.selector);
  }

  #byCss(selector: string): LocatedElement | null {
    this.#document ??= parseDocument(this.html);
    let element: Element | null;
    try {
      element = selectOne(selector, this.#document) as Element | null;
    } catch (error) {
      throw new InvalidSelectorError(
        `CSS selector ${JSON.stringify(selector)} is not valid: ${(error as Error).message}`,
      );
    }
    if (!element) return null;
    const src = element.attribs.src;
    const html = render(element, { encodeEntities: 'utf8' });
    // The text is read from the markup the area records, as the engine reads it when it has only
    // the markup: the two agree by construction (see visible-text.test.ts).
    return { html, text: visibleText(html), ...(src ? { src } : {}) };
  }

  #byXpath(expression: string): LocatedElement | null {
    // The xpath package loses its way from a document whose first child is a doctype node.
    this.#dom ??= parseHTML(this.html.replace(/^\s*<!doctype[^>]*>/i, '')).document;
    let found: unknown;
    try {
      found = xpathWithHtmlSemantics.parse(expression).select({ node: this.#dom, isHtml: true });
    } catch (error) {
      throw new InvalidSelectorError(
        `XPath ${JSON.stringify(expression)} is not valid: ${(error as Error).message}`,
      );
    }
    const first = Array.isArray(found) ? (found[0] as DomNode | undefined) : undefined;
    if (!first) return null;
    if (first.nodeType !== 1) {
      const value = (first.nodeValue ?? first.textContent ?? '').replace(/\s+/g, ' ').trim();
      return { html: value, text: value };
    }
    const html = first.outerHTML ?? '';
    const src = first.getAttribute?.('src');
    return { html, text: visibleText(html), ...(src ? { src } : {}) };
  }
}

// The package's parse() is what lets unprefixed names match XHTML-namespaced elements; its
// type declarations only cover select(), which has no such option.
const xpathWithHtmlSemantics = xpath as unknown as {
  parse(expression: string): { select(options: { node: unknown; isHtml: boolean }): unknown };
};

interface DomNode {
  nodeType: number;
  nodeValue: string | null;
  textContent?: string | null;
  outerHTML?: string;
  getAttribute?(name: string): string | null;
}
