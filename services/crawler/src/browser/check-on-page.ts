import type { EgressGuard } from '@mimamori/egress';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { areasDigest } from '../domain/areas-digest.ts';
import {
  type AreaContent,
  type AreaRequest,
  type FetchRequest,
  type FetchResult,
  pageLocator,
} from '../domain/page-fetcher.ts';
import { CrawlFailure } from '../http/crawl-failure.ts';
import { type Box, readAreas } from './area-reader.ts';
import type { LeasedPage } from './browser-pool.ts';
import { cookiesFromHeader } from './cookie-header.ts';
import { ensureSignedIn } from './login.ts';
import { type ActionLimits, describe, runActions } from './page-actions.ts';
import { DEFAULT_LOAD_LIMITS, loadPage, throwIfPageStopped } from './page-load.ts';
import { boxOnCapture, captureArea, capturePage } from './screenshot-capture.ts';
import type { EncodedImage } from './screenshot-encoding.ts';

export const DEFAULT_ACTION_LIMITS: ActionLimits = { ...DEFAULT_LOAD_LIMITS, actionTimeoutMs: 10_000 };

/**
 * One browser-mode check on a page of a context made for it: cookies, login, load, actions,
 * areas read in an isolated world, screenshots. Throws CrawlFailure for a failed check.
 */
export async function checkOnPage(
  lease: Pick<LeasedPage, 'page' | 'context'>,
  request: FetchRequest,
  { limits, guard, signal }: { limits: ActionLimits; guard: EgressGuard; signal: AbortSignal },
): Promise<FetchResult> {
  const { page, context } = lease;
  const abort = () => void page.close().catch(() => undefined);
  signal.addEventListener('abort', abort, { once: true });
  try {
    if (request.cookies) await context.addCookies(cookiesFromHeader(request.cookies, request.url));
    const kept = Boolean(request.sessionState);
    const signedIn = request.login
      ? await ensureSignedIn(page, request.url, request.login, limits, guard, { kept })
      : { response: await loadPage(page, request.url, limits, guard), replayed: false };
    let response = signedIn.response;
    let read: Awaited<ReturnType<typeof actAndRead>>;
    try {
      read = await actAndRead(page, request, limits, guard);
    } catch (error) {
      // A kept session can lapse without the page saying so (no form, no status): the signed-out
      // page then lacks what the check reads. One replayed login tells the two apart.
      const lapsed =
        request.login &&
        kept &&
        !signedIn.replayed &&
        error instanceof CrawlFailure &&
        error.code === 'element_not_found';
      if (!lapsed || !request.login) throw error;
      ({ response } = await ensureSignedIn(page, request.url, request.login, limits, guard, {
        kept,
        force: true,
      }));
      read = await actAndRead(page, request, limits, guard);
    }
    const { areas, boxes } = read;
    // Screenshots only on change: areas read exactly as at the site's last check cannot make an
    // update, so that check's pictures stand (docs/product.md#checks); the digest goes on either way.
    const digest = request.screenshot === 'none' ? undefined : areasDigest(areas);
    const shots =
      digest !== undefined && digest === request.previousAreasDigest ? 'none' : request.screenshot;
    const mask = shots === 'none' ? [] : excludedElementLocators(page, request.areas);
    if (shots === 'areas') {
      for (const area of areas) {
        const box = boxes.get(area.areaId);
        if (box) area.screenshot = imageOnly(await captureArea(page, box, mask));
      }
    }
    const capture = shots === 'page' ? await capturePage(page, mask) : undefined;
    const pageScreenshot = capture ? imageOnly(capture.image) : undefined;
    if (capture) {
      // The update's pictures box the watched element itself, wherever the page was scaled.
      for (const area of areas) {
        const box = boxes.get(area.areaId);
        const pageBox = box ? boxOnCapture(box, capture) : null;
        if (pageBox) area.pageBox = pageBox;
      }
    }
    const keepsSession = Boolean(request.login || request.sessionState);
    return {
      ok: true,
      finalUrl: page.url(),
      status: response.status(),
      areas,
      ...(pageScreenshot ? { pageScreenshot } : {}),
      ...(keepsSession ? keptSession(await context.storageState()) : {}),
      ...(digest ? { areasDigest: digest } : {}),
    };
  } finally {
    signal.removeEventListener('abort', abort);
  }
}

/** The elements the areas exclude, for screenshots to mask (docs/product.md#areas). */
function excludedElementLocators(page: Page, areas: readonly AreaRequest[]): Locator[] {
  return areas.flatMap((area) => {
    if (!area.excludeElements?.length) return [];
    if (area.selectorType !== 'css' && area.selectorType !== 'xpath') return [];
    const engine = (type: string, selector: string) => `${type === 'xpath' ? 'xpath' : 'css'}=${selector}`;
    const root = area.frame ? page.frameLocator(engine(area.frame.selectorType, area.frame.selector)) : page;
    const element = root.locator(engine(area.selectorType, area.selector));
    return area.excludeElements.map((selector) => element.locator(`css=${selector}`));
  });
}

async function actAndRead(page: Page, request: FetchRequest, limits: ActionLimits, guard: EgressGuard) {
  if (request.actions.length > 0) await runActions(page, request.actions, limits, guard);
  // A page that navigated itself somewhere refused shows the guard's answer, not the page; a
  // frame sent somewhere refused is dropped, unless an area is read inside a frame.
  const stopped = { framesToo: request.areas.some((area) => area.frame) };
  await throwIfPageStopped(page, request.url, stopped);
  const read = await readCheckedAreas(page, request).catch(async (error: unknown) => {
    await throwIfPageStopped(page, request.url, stopped);
    throw error;
  });
  await throwIfPageStopped(page, request.url, stopped);
  return read;
}

/** The most session state a check keeps: it travels sealed in every check of the site. */
export const MAX_KEPT_SESSION_BYTES = 64 * 1024;

/**
 * The session to keep for the next check: cookies and local storage, or the cookies alone when
 * a site fills its storage past the cap (sessions live in cookies far more often), or nothing.
 */
function keptSession(state: Awaited<ReturnType<BrowserContext['storageState']>>): { sessionState?: string } {
  const whole = JSON.stringify(state);
  if (Buffer.byteLength(whole) <= MAX_KEPT_SESSION_BYTES) return { sessionState: whole };
  const cookiesOnly = JSON.stringify({ cookies: state.cookies, origins: [] });
  return Buffer.byteLength(cookiesOnly) <= MAX_KEPT_SESSION_BYTES ? { sessionState: cookiesOnly } : {};
}

async function readCheckedAreas(
  page: Page,
  request: FetchRequest,
): Promise<{ areas: AreaContent[]; boxes: Map<string, Box> }> {
  const readings = await readAreas(page, request.areas);
  const missing = readings.findIndex((reading) => !reading.found);
  const area = request.areas[missing];
  if (area) {
    const frame = readings[missing]?.missingFrame;
    const what = frame
      ? `iframe not found: ${area.frame?.selectorType} ${frame}`
      : `element not found: ${describe(pageLocator(area))}`;
    throw new CrawlFailure('element_not_found', what, false, area.areaId);
  }
  const contents: AreaContent[] = [];
  const boxes = new Map<string, Box>();
  for (const reading of readings) {
    if (reading.box) boxes.set(reading.areaId, reading.box);
    contents.push({ areaId: reading.areaId, found: reading.found, html: reading.html, text: reading.text });
  }
  return { areas: contents, boxes };
}

const imageOnly = ({ data, contentType }: EncodedImage) => ({ data, contentType });
