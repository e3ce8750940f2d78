import type { ContentKind, DocumentSelectorType } from '@mimamori/watch-engine/document-areas';
import type { UserAgentKind } from '@mimamori/watch-engine/user-agent-kinds';
import type { Reader } from './reader-locale.ts';

/**
 * The port both fetch modes implement: HTTP (undici + an HTML parser) and browser
 * (Playwright driving system Chromium). The check consumer and the wizard preview pick one
 * per site; everything secret in a request has already been opened from its sealed form.
 */
export type SelectorType = 'css' | 'xpath';

export interface Locator {
  selector: string;
  selectorType: SelectorType;
  /** The iframe the element lives in, when it is not in the top document. */
  frame?: { selector: string; selectorType: SelectorType };
}

export interface AreaRequest extends Omit<Locator, 'selectorType'> {
  areaId: string;
  /**
   * CSS selectors of elements inside the area that screenshots mask (the area's excludeElements
   * option; `:scope` is the area's element). Their text is dropped by the watch engine.
   */
  excludeElements?: string[];
  /** A page's areas are CSS or XPath; a document's are named as its kind reads them. */
  selectorType: SelectorType | DocumentSelectorType;
}

/** A page's area as its locator; a document's selector types never reach a page reader. */
export function pageLocator(area: AreaRequest): Locator {
  const { selectorType } = area;
  if (selectorType !== 'css' && selectorType !== 'xpath')
    throw new Error(`a page's area is found by CSS or XPath, not ${selectorType}`);
  return { ...area, selectorType };
}

export type PageActionType = 'click' | 'enter_text' | 'modifier_key' | 'goto_url';

export interface PageAction {
  type: PageActionType;
  /** Where to click or type; absent for goto_url. */
  locator?: Locator;
  /** Text to type, key to press (e.g. `Control+A`), or the URL to go to. */
  value?: string;
  /** A skippable action whose element is missing is passed over instead of failing the check. */
  skippable: boolean;
}

export type { UserAgentKind };

export interface LoginSettings {
  actions: PageAction[];
  /** How a kept session is known to still be signed in. */
  verify: { kind: 'cookie'; name: string } | { kind: 'replay' };
}

export interface FetchRequest {
  url: string;
  mode: 'http' | 'browser';
  /**
   * What the URL serves: a web page (the default), or a PDF, JSON or XML document, which only
   * HTTP mode reads (docs/product.md#documents-and-data).
   */
  contentKind?: ContentKind;
  userAgent: { kind: UserAgentKind; value?: string };
  /** Screen size; the user agent's own when absent. */
  viewport?: { width: number; height: number };
  /** Cookies the user set for the site, as a Cookie header value. */
  cookies?: string;
  login?: LoginSettings;
  /** Session cookies kept from the previous check (opened from their sealed form). */
  sessionState?: string;
  /**
   * The areasDigest of the site's newest check with screenshots: areas read the same again
   * cannot make an update, so no screenshot is taken (docs/product.md#checks).
   */
  previousAreasDigest?: string;
  /**
   * Browser mode: record what the page asks for, and answer the next checks by asking it again
   * over HTTP while nothing differs (ADR 0031). Off when the person insists on the browser.
   */
  revalidate?: boolean;
  /** What the site's last browser check kept for that (opened from its sealed form). */
  revalidation?: string;
  /**
   * The site the check is for: the crawler remembers the newest revalidation state it made for
   * it, which a check queued before that state was kept does not carry (ADR 0031).
   */
  targetId?: string;
  actions: PageAction[];
  areas: AreaRequest[];
  screenshot: 'none' | 'page' | 'areas';
  /** An upstream proxy from the configured pool, when the site uses one. */
  proxyUrl?: string;
  /**
   * The account the check is for. Browser mode may reuse a warm context for consecutive checks
   * of the same account (never across accounts); without it every check gets a fresh context.
   */
  accountId?: string;
  /** The account's language and time zone, presented to the site as the person's browser would. */
  reader?: Reader;
}

export interface AreaContent {
  areaId: string;
  found: boolean;
  html: string;
  /** What a person sees (browser) or its closest equivalent (HTTP). */
  text: string;
  /** Encoded image (WebP or JPEG) of the area, when area screenshots were asked for. */
  screenshot?: { data: Uint8Array; contentType: string };
  /** Where the element is on the page screenshot, in its pixels, when one was taken. */
  pageBox?: { x: number; y: number; width: number; height: number };
}

export type CrawlErrorCode =
  | 'unreachable'
  | 'blocked_by_robot'
  | 'timeout'
  | 'http_status'
  | 'refused_address'
  | 'too_large'
  | 'too_many_redirects'
  | 'element_not_found'
  | 'login_failed'
  | 'action_failed'
  | 'browser_crashed'
  /** The job itself cannot run: a sealed value that does not open, a fetch mode not served here. */
  | 'invalid_job';

export type FetchResult =
  | {
      ok: true;
      finalUrl: string;
      status: number;
      areas: AreaContent[];
      pageScreenshot?: { data: Uint8Array; contentType: string };
      /** Session cookies to keep for the next check (sealed before they leave the crawler). */
      sessionState?: string;
      /** With screenshots asked for: the digest of what was read of the areas (see areasDigest). */
      areasDigest?: string;
      /** Browser mode: what to keep for revalidating the next check (sealed before it leaves). */
      revalidation?: string;
      /** Browser mode: false when the page's requests were asked again and Chromium never ran. */
      rendered?: boolean;
    }
  | {
      ok: false;
      code: CrawlErrorCode;
      /** For people and logs: names the selector, status or address; never a secret. */
      detail: string;
      /** Whether trying again later may succeed (nak with delay) or not (terminate). */
      retryable: boolean;
      /** With element_not_found: the first area not found. */
      areaId?: string;
    };

/** The wizard's question about a URL: what it serves, and what candidate areas of a document read. */
export interface DocumentReadRequest {
  url: string;
  userAgent: { kind: UserAgentKind; value?: string };
  cookies?: string;
  proxyUrl?: string;
  reader?: Reader;
  /** Read as this kind; absent: as detected (a page is then only detected, not read). */
  contentKind?: Exclude<ContentKind, 'page'>;
  areas: AreaRequest[];
}

export type DocumentReadResult =
  | {
      ok: true;
      finalUrl: string;
      detectedKind: ContentKind;
      /** The kind it was read as; 'page' when it was not read as a document. */
      contentKind: ContentKind;
      /** The start of the document's text. */
      lines: string[];
      moreLines: boolean;
      /** One per requested area; `problem` names why an area's selector cannot be read. */
      areas: { areaId: string; found: boolean; text: string; html: string; problem?: string }[];
    }
  | { ok: false; code: CrawlErrorCode; detail: string };

/** HTTP mode reads documents too; the wizard asks it before opening a page in the browser. */
export interface DocumentReader {
  readDocument(request: DocumentReadRequest, signal: AbortSignal): Promise<DocumentReadResult>;
}

export interface PageFetcher {
  fetch(request: FetchRequest, signal: AbortSignal): Promise<FetchResult>;
  close(): Promise<void>;
}
