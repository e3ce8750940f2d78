/**
 * The browser and system a user agent names, as the session list and the new-device mail show
 * them ("Chrome", "macOS"). Only the common ones are told apart: anything else reads as empty,
 * which the screens show as an unknown browser rather than a wrong one.
 */
export function describeUserAgent(userAgent: string): { browser: string; os: string } {
  const ua = userAgent.slice(0, 512);
  const browser =
    (/Edg(?:e|A|iOS)?\//.test(ua) && 'Edge') ||
    (/OPR\/|Opera/.test(ua) && 'Opera') ||
    (/Firefox\/|FxiOS\//.test(ua) && 'Firefox') ||
    (/HeadlessChrome\//.test(ua) && 'Chrome (headless)') ||
    (/Chrome\/|CriOS\//.test(ua) && 'Chrome') ||
    (/Version\/[\d.]+.*Safari\//.test(ua) && 'Safari') ||
    '';
  const os =
    (/iPhone|iPad|iPod/.test(ua) && 'iOS') ||
    (/Android/.test(ua) && 'Android') ||
    (/Windows/.test(ua) && 'Windows') ||
    (/CrOS/.test(ua) && 'ChromeOS') ||
    (/Mac OS X|Macintosh/.test(ua) && 'macOS') ||
    (/Linux/.test(ua) && 'Linux') ||
    '';
  return { browser, os };
}
