/**
 * The user agents a site can be read as: none (Chromium's own), free (one the user writes), or one of
 * the presets, which the crawler turns into a user-agent string and screen. One list for the site's
 * settings (target), the crawler, the gateway and the wizard, so a kind added in one place is known
 * in all of them. Browser-safe: the web imports it as `@mimamori/watch-engine/user-agent-kinds`.
 */
export const USER_AGENT_KINDS = ['none', 'free', 'iphone', 'android', 'chrome', 'firefox', 'safari'] as const;

export type UserAgentKind = (typeof USER_AGENT_KINDS)[number];

export function isUserAgentKind(kind: string): kind is UserAgentKind {
  return (USER_AGENT_KINDS as readonly string[]).includes(kind);
}
