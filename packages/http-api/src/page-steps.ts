import { USER_AGENT_KINDS } from '@mimamori/watch-engine/user-agent-kinds';
import { z } from 'zod';

/** Words shared by a site's settings and the wizard's preview: how an element is found and acted on. */
export const selectorType = z.enum(['css', 'xpath']);
export type SelectorType = z.infer<typeof selectorType>;

export const actionType = z.enum(['click', 'enter_text', 'modifier_key', 'goto_url']);
export type ActionType = z.infer<typeof actionType>;

// The kinds are the watch engine's, which the crawler reads them with.
export const userAgentKind = z.enum(USER_AGENT_KINDS);
export type UserAgentKind = z.infer<typeof userAgentKind>;

export const loginVerifyKind = z.enum(['cookie', 'replay']);

/** Where an element is: a selector or an XPath, optionally inside an iframe. */
export const locatorAnswer = z.object({
  selector: z.string(),
  selector_type: selectorType,
  frame_selector: z.string().describe('The iframe the element is in; empty for the top document.'),
  frame_selector_type: z.union([selectorType, z.literal('')]),
});
export type Locator = z.infer<typeof locatorAnswer>;

/** A site's area: a page's CSS or XPath, or a document's pages, text, JSONPath or XPath. */
export const areaSelectorType = z.enum(['css', 'xpath', 'pages', 'text', 'jsonpath']);
export type AreaSelectorType = z.infer<typeof areaSelectorType>;

export const areaLocatorAnswer = locatorAnswer.extend({ selector_type: areaSelectorType });
export type AreaLocator = z.infer<typeof areaLocatorAnswer>;

/** A step before the page is read; `locator` is absent for goto_url and modifier_key. */
export const pageActionAnswer = z.object({
  type: actionType,
  locator: locatorAnswer.optional(),
  value: z.string().describe('Text to type, key to press or URL to go to. Never logged.'),
  skippable: z.boolean(),
});
export type PageAction = z.infer<typeof pageActionAnswer>;

export const userAgentAnswer = z.object({ kind: userAgentKind, value: z.string() });
export type UserAgent = z.infer<typeof userAgentAnswer>;

/** A screen size in CSS pixels; without one the user agent's own is used. */
export const viewportAnswer = z.object({ width: z.number().int(), height: z.number().int() });
export type Viewport = z.infer<typeof viewportAnswer>;

export const loginVerifyAnswer = z.object({ kind: loginVerifyKind, cookie_name: z.string() });
export type LoginVerify = z.infer<typeof loginVerifyAnswer>;
