import type { EgressGuard } from '@mimamori/egress';
import type { FrameLocator, Page, Locator as PlaywrightLocator } from 'playwright-core';
import type { Locator, PageAction } from '../domain/page-fetcher.ts';
import { CrawlFailure } from '../http/crawl-failure.ts';
import { type LoadLimits, loadPage, settle } from './page-load.ts';

export interface ActionLimits extends LoadLimits {
  /** How long an action waits for its element to appear and accept input. */
  actionTimeoutMs: number;
}

/** A Playwright selector for one of our locators: `css=…` or `xpath=…`. */
export function playwrightSelector(locator: { selector: string; selectorType: 'css' | 'xpath' }): string {
  return `${locator.selectorType}=${locator.selector}`;
}

export function elementOf(page: Page, locator: Locator): PlaywrightLocator {
  const scope: Page | FrameLocator = locator.frame
    ? page.frameLocator(playwrightSelector(locator.frame))
    : page;
  return scope.locator(playwrightSelector(locator)).first();
}

/**
 * Replays actions in order as a person would (real clicks and key presses), letting the page
 * settle after each. A skippable action whose element never appears is passed over. Typed
 * values are never part of an error: they may be passwords.
 */
export async function runActions(
  page: Page,
  actions: readonly PageAction[],
  limits: ActionLimits,
  guard: EgressGuard,
): Promise<void> {
  for (const [index, action] of actions.entries()) {
    const step = `action ${index + 1} (${action.type})`;
    if (action.type === 'goto_url') {
      if (!action.value) throw new CrawlFailure('action_failed', `${step} has no URL`, false);
      await loadPage(page, action.value, limits, guard);
      continue;
    }
    if (!action.locator) {
      if (action.type === 'modifier_key' && action.value) {
        await page.keyboard.press(action.value);
        await settle(page, limits);
        continue;
      }
      throw new CrawlFailure('action_failed', `${step} has no selector`, false);
    }
    const element = elementOf(page, action.locator);
    try {
      await element.waitFor({ state: 'visible', timeout: limits.actionTimeoutMs });
    } catch {
      if (action.skippable) continue;
      throw new CrawlFailure(
        'element_not_found',
        `${step}: element not found: ${describe(action.locator)}`,
        false,
      );
    }
    try {
      await perform(element, action, limits.actionTimeoutMs);
    } catch (error) {
      if (page.isClosed()) throw error;
      if (action.skippable) continue;
      throw new CrawlFailure('action_failed', `${step} failed on ${describe(action.locator)}`, true);
    }
    await settleAfterAction(page, limits);
  }
}

async function perform(element: PlaywrightLocator, action: PageAction, timeout: number) {
  if (action.type === 'click') await element.click({ timeout });
  else if (action.type === 'enter_text') await element.fill(action.value ?? '', { timeout });
  else await element.press(action.value ?? 'Enter', { timeout });
}

/** A click may start a navigation; wait for its load before waiting for the DOM to settle. */
async function settleAfterAction(page: Page, limits: LoadLimits) {
  await page.waitForLoadState('load', { timeout: limits.loadTimeoutMs }).catch(() => undefined);
  await settle(page, limits);
}

export function describe(locator: Locator): string {
  const own = `${locator.selectorType} ${locator.selector}`;
  return locator.frame ? `${own} in iframe ${locator.frame.selectorType} ${locator.frame.selector}` : own;
}
