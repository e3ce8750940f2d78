import type { QuietHours } from '@mimamori/quiet-hours';
/** A site's settings as the API received them, before validation (secrets in the clear). */
export interface LocatorInput {
  selector: string;
  selectorType: string;
  frameSelector: string;
  frameSelectorType: string;
}

export interface ActionInput {
  type: string;
  locator: LocatorInput | null;
  value: string;
  skippable: boolean;
}

export interface AreaInput {
  areaId: string;
  label: string;
  content: string;
  locator: LocatorInput | null;
  /** The watch engine's area options as JSON; '' for its defaults. */
  optionsJson: string;
}

export interface SettingsInput {
  label: string;
  url: string;
  intervalMinutes: number;
  screenshot: boolean;
  useProxy: boolean;
  mailNotify: boolean;
  chatNotify: string;
  discordWebhookUrl: string;
  userAgentKind: string;
  userAgentValue: string;
  viewportWidth: number;
  viewportHeight: number;
  cookies: string;
  clearCookies: boolean;
  login: { actions: ActionInput[]; verifyKind: string; verifyCookieName: string } | null;
  actions: ActionInput[];
  areas: AreaInput[];
  /** The watch engine's rule groups as JSON; '' for none (every update notifies). */
  rulesJson: string;
  fetchMode: string;
  /** '' for a web page. */
  contentKind: string;
  /** 0: the default. */
  failureAlertAfter: number;
  /** 0: no silence alert. */
  silenceAlertDays: number;
  /** Browser mode: every check renders (ADR 0031). */
  alwaysRender: boolean;
  /** 'account' ('' too), 'none' or 'own' (docs/product.md#quiet-hours). */
  quietMode: string;
  /** The site's own quiet hours, read with quietMode 'own'. */
  quietHours: QuietHours | null;
  paused: boolean;
}
