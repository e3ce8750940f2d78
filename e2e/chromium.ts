import { CHROMIUM_ARGS, chromiumExecutablePath } from '@mimamori/crawler';
import { type Browser, chromium } from 'playwright-core';

/** The same Debian Chromium and flags the crawler runs; tests never download a browser. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumExecutablePath(), args: [...CHROMIUM_ARGS] });
}
