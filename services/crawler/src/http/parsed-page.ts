import { SkimmingTokenizer } from '@mimamori/watch-engine/skimming-tokenizer';
import {
  type VisibleTextEvents,
  visibleText,
  visibleTextOfEvents,
} from '@mimamori/watch-engine/visible-text';
import { compile, selectOne } from 'css-select';
import render from 'dom-serializer';
import {
  type AnyNode,
  type ChildNode,
  DomHandler,
  type Element,
  isComment,
  isDirective,
  isTag,
  isText,
} from 'domhandler';
import { Parser } from 'htmlparser2';
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
 * One served HTML document, parsed as far as its areas need: htmlparser2 with css-select for CSS
 * selectors (the fast path), and linkedom's DOM for XPath, which the xpath package evaluates
 * with HTML semantics (unprefixed names match HTML elements).
 *
 * Parsing is most of a check's cost, and a watched area usually ends long before the page does, so a
 * CSS selector that only looks at an element, its ancestors and its earlier siblings is matched as
 * each element opens, and parsing pauses once the first match has closed: a closed element never
 * changes again, so its markup and text are what a whole parse gives. Any other selector (`:has`,
 * `:last-child`, …) parses the rest of the page first and selects on the whole document.
 */
export class ParsedPage {
  // Built on first need: a selector that reads only ancestors never uses the growing document.
  #growing: { document: GrowingDocument; parser: Parser } | undefined;
  #started = false;
  #complete = false;
  #dom: ReturnType<typeof parseHTML>['document'] | undefined;

  constructor(readonly html: string) {}

  get #document(): GrowingDocument {
    return this.#growingParse().document;
  }

  #growingParse(): { document: GrowingDocument; parser: Parser } {
    if (!this.#growing) {
      const document = new GrowingDocument();
      this.#growing = { document, parser: new Parser(document, { Tokenizer: SkimmingTokenizer }) };
    }
    return this.#growing;
  }

  /** The first element the locator (without its frame) matches, or null. */
  locate(locator: Pick<Locator, 'selector' | 'selectorType'>): LocatedElement | null {
    return locator.selectorType === 'xpath' ? this.#byXpath(locator.selector) : this.#byCss(locator.selector);
  }

  #byCss(selector: string): LocatedElement | null {
    let element: Element | null;
    if (readsOnlyAncestors(selector)) {
      element = firstWithAncestorsOnly(this.html, (root) => compileCss(selector, root));
    } else {
      const query = compileCss(selector, this.#document.root);
      element = decidedByWhatPrecedes(selector) ? this.#firstAsParsed(query) : this.#firstInWhole(query);
    }
    if (!element) return null;
    const src = element.attribs.src;
    const html = render(element, { encodeEntities: 'utf8' });
    // The text is the text of the markup the area records, as the engine reads it when it has only
    // the markup (see visible-text.test.ts): read from the element as parsed, which is what parsing
    // that markup again gives, or from the markup where the two parses could differ.
    return { html, text: textAsRecorded(element) ?? visibleText(html), ...(src ? { src } : {}) };
  }

  #firstInWhole(query: ElementQuery): Element | null {
    while (!this.#complete) this.#parseOn();
    return selectOne<AnyNode, Element>(query, this.#document.root);
  }

  #firstAsParsed(query: ElementQuery): Element | null {
    // What is parsed so far is a prefix of the page in document order, so a match in it is the first.
    let element = selectOne<AnyNode, Element>(query, this.#document.root);
    if (!element && !this.#complete) {
      this.#document.await(query);
      this.#parseOn();
      element = this.#document.awaited ?? null;
    } else if (element && !this.#complete && this.#document.isOpen(element)) {
      this.#document.await(element);
      this.#parseOn();
    }
    this.#document.await(undefined);
    return element;
  }

  /** Parses until the awaited element closes or the page ends. */
  #parseOn() {
    const { document, parser } = this.#growingParse();
    document.paused = false;
    if (this.#started) parser.resume();
    else {
      this.#started = true;
      parser.write(this.html);
    }
    if (!document.paused) {
      parser.end();
      this.#complete = true;
    }
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

type ElementQuery = (node: AnyNode) => boolean;

/**
 * visibleText of the element's rendered markup, read from the element itself: its tree gives the
 * events parsing that markup again gives, and the area's markup is not parsed a second time (that was
 * a tenth of an HTTP check's CPU). Undefined where a second parse could read the markup otherwise:
 * inside SVG or MathML, whose rendering switches to XML rules, and in the elements the renderer writes
 * unescaped but the parser reads as markup (`noscript`) or never closes (`plaintext`).
 */
function textAsRecorded(element: Element): string | undefined {
  for (let parent = element.parent; parent; parent = parent.parent) {
    if (isTag(parent) && READ_OTHERWISE.has(parent.name)) return undefined;
  }
  return visibleTextOfEvents((events) => replay(element, events));
}

const READ_OTHERWISE = new Set(['svg', 'math', 'noscript', 'plaintext']);

function replay(node: ChildNode, events: VisibleTextEvents): boolean {
  if (isText(node)) {
    events.ontext(node.data);
    return true;
  }
  // Neither is read for text, and each renders as it was parsed.
  if (isComment(node) || isDirective(node)) return true;
  // CDATA, the one other kind, is only parsed as such in foreign content.
  if (!isTag(node) || READ_OTHERWISE.has(node.name)) return false;
  events.onopentag(node.name, node.attribs);
  for (const child of node.children) if (!replay(child, events)) return false;
  events.onclosetag(node.name);
  return true;
}

/** The document as the selector's context, as selectOne(selector, document) compiles it. */
function compileCss(selector: string, document: AnyNode): ElementQuery {
  try {
    return compile<AnyNode, Element>(selector, undefined, document);
  } catch (error) {
    throw new InvalidSelectorError(
      `CSS selector ${JSON.stringify(selector)} is not valid: ${(error as Error).message}`,
    );
  }
}

/**
 * The first element a query matches, found keeping only the open elements (each linked to its
 * parent) and building the DOM of the match alone, which halves the cost of parsing up to it. Enough
 * for a selector that looks at nothing but an element and its ancestors.
 */
function firstWithAncestorsOnly(html: string, compileFor: (root: AnyNode) => ElementQuery): Element | null {
  const seeker = new AncestorsAndArea();
  seeker.query = compileFor(seeker.root);
  const parser = new Parser(seeker, { Tokenizer: SkimmingTokenizer });
  parser.write(html);
  if (!seeker.paused) parser.end();
  return seeker.found ?? null;
}

class AncestorsAndArea extends DomHandler {
  query: ElementQuery | undefined;
  found: Element | undefined;
  paused = false;
  readonly #templates = new TemplateDepth();
  #parser: { pause(): void } | undefined;

  override onparserinit(parser: Parser): void {
    super.onparserinit(parser);
    this.#parser = parser;
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    super.onopentag(name, attribs);
    if (this.found) return;
    const element = this.tagStack[this.tagStack.length - 1] as Element;
    if (this.#templates.outside && this.query?.(element)) this.found = element;
    this.#templates.opened(name);
  }

  override onclosetag(): void {
    const closing = this.tagStack[this.tagStack.length - 1];
    super.onclosetag();
    if (closing !== undefined) this.#templates.closed((closing as Element).name);
    if (closing !== undefined && closing === this.found) {
      this.paused = true;
      this.#parser?.pause();
    }
  }

  // Until the match opens, a node only needs its parent, for the selector's ancestor tests; text,
  // comments and the like are not needed at all.
  protected override addNode(node: ChildNode): void {
    if (this.found) super.addNode(node);
    else node.parent = this.tagStack[this.tagStack.length - 1] ?? null;
  }

  override ontext(data: string): void {
    if (this.found) super.ontext(data);
  }

  override oncomment(data: string): void {
    if (this.found) super.oncomment(data);
  }

  override oncdatastart(): void {
    if (this.found) super.oncdatastart();
  }

  override onprocessinginstruction(name: string, data: string): void {
    if (this.found) super.onprocessinginstruction(name, data);
  }
}

/**
 * The DOM htmlparser2's parseDocument builds, which can wait for an element: the first to open that
 * matches a query, or a given one, and pause the parser when that element closes.
 */
class GrowingDocument extends DomHandler {
  #query: ElementQuery | undefined;
  readonly #templates = new TemplateDepth();
  awaited: Element | undefined;
  paused = false;
  #parser: { pause(): void } | undefined;

  override onparserinit(parser: Parser): void {
    super.onparserinit(parser);
    this.#parser = parser;
  }

  await(what: Element | ElementQuery | undefined) {
    this.#query = typeof what === 'function' ? what : undefined;
    this.awaited = typeof what === 'object' ? what : undefined;
  }

  isOpen(element: Element): boolean {
    return this.tagStack.includes(element);
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    super.onopentag(name, attribs);
    const element = this.tagStack[this.tagStack.length - 1] as Element;
    if (this.#query && this.#templates.outside && this.#query(element)) {
      this.awaited = element;
      this.#query = undefined;
    }
    this.#templates.opened(name);
  }

  override onclosetag(): void {
    const closing = this.tagStack[this.tagStack.length - 1];
    super.onclosetag();
    if (closing !== undefined) this.#templates.closed((closing as Element).name);
    if (closing !== undefined && closing === this.awaited) {
      this.paused = true;
      this.#parser?.pause();
    }
  }
}

/**
 * How many `<template>` elements are open. A selection on the whole document never looks inside a
 * template (its content is not part of the page), so an element opening inside one is no match.
 */
class TemplateDepth {
  #open = 0;

  get outside(): boolean {
    return this.#open === 0;
  }

  opened(name: string) {
    if (name === 'template') this.#open++;
  }

  closed(name: string) {
    if (name === 'template') this.#open--;
  }
}

// Pseudo-classes decided by an element, its ancestors and its earlier siblings, all known when the
// element opens. Any other (`:has`, `:empty`, `:last-child`, `:contains`, …) needs what comes after.
const DECIDED_AT_OPEN = new Set([
  'first-child',
  'nth-child',
  'first-of-type',
  'nth-of-type',
  'not',
  'is',
  'where',
  'matches',
  'root',
  'link',
  'any-link',
  'header',
  'disabled',
  'enabled',
  'required',
  'optional',
]);

// Pseudo-classes decided by an element and its ancestors alone.
const DECIDED_BY_ANCESTORS = new Set([
  'not',
  'is',
  'where',
  'matches',
  'root',
  'link',
  'any-link',
  'header',
  'required',
  'optional',
]);

/** Whether a selector looks at nothing but an element and its ancestors: no siblings, no content. */
function readsOnlyAncestors(selector: string): boolean {
  if (selector.includes('::') || /[+~]/.test(selector)) return false;
  for (const [, name] of selector.matchAll(/:([\w-]+)/g)) {
    if (!DECIDED_BY_ANCESTORS.has((name as string).toLowerCase())) return false;
  }
  return true;
}

/**
 * Whether the first match of a selector is known once it has closed. Errs towards no: a colon inside
 * an attribute value, or any pseudo-element, only costs the whole parse.
 */
function decidedByWhatPrecedes(selector: string): boolean {
  if (selector.includes('::')) return false;
  for (const [, name] of selector.matchAll(/:([\w-]+)/g)) {
    if (!DECIDED_AT_OPEN.has((name as string).toLowerCase())) return false;
  }
  return true;
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
