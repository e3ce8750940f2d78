import type { UserAgentKind } from '../domain/page-fetcher.ts';

export interface DeviceProfile {
  /** Absent: Chromium's own user agent. */
  userAgent?: string;
  viewport: { width: number; height: number };
  isMobile: boolean;
  hasTouch: boolean;
  deviceScaleFactor: number;
}

const DESKTOP = { width: 1280, height: 800 };
const desktop = (userAgent?: string): DeviceProfile => ({
  ...(userAgent ? { userAgent } : {}),
  viewport: DESKTOP,
  isMobile: false,
  hasTouch: false,
  deviceScaleFactor: 1,
});

/**
 * What each user-agent choice sends and the screen it implies, so a site that serves phones a
 * different layout is watched in the layout the user saw. Phones render at scale 1: screenshots
 * stay small and area boxes stay in CSS pixels.
 */
const PROFILES: Record<Exclude<UserAgentKind, 'free'>, DeviceProfile> = {
  none: desktop(),
  chrome: desktop(
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  ),
  firefox: desktop('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0'),
  safari: desktop(
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  ),
  iphone: {
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 1,
  },
  android: {
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    viewport: { width: 412, height: 915 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 1,
  },
};

export function deviceProfile(
  userAgent: { kind: UserAgentKind; value?: string },
  screen?: { width: number; height: number },
): DeviceProfile {
  const base =
    userAgent.kind === 'free' ? desktop(userAgent.value?.trim() || undefined) : PROFILES[userAgent.kind];
  return screen ? { ...base, viewport: screen } : base;
}
