import type { Page } from 'playwright-core';
import type { AreaRequest } from '../domain/page-fetcher.ts';
import { isolatedWorld } from './isolated-world.ts';
import { AREA_NAME } from './page-scripts.ts';

/** Long enough for a product's name and its "Price" label, short enough for a mail's subject line. */
export const AREA_NAME_MAX_LENGTH = 30;

/**
 * The name the wizard suggests for a chosen area, from what the page says about the element (its
 * label, the heading of the part it is in); empty when the page says nothing of it.
 */
export async function suggestAreaName(page: Page, area: AreaRequest): Promise<string> {
  const world = await isolatedWorld(page, area.frame);
  const locator = { selector: area.selector, selectorType: area.selectorType };
  return world.evaluate<string>(AREA_NAME, { locator, maxLength: AREA_NAME_MAX_LENGTH });
}
