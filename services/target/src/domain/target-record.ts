import type { QuietHours } from '@mimamori/quiet-hours';
import type { NotificationRules } from '@mimamori/watch-engine';
import type { ContentKind, DocumentSelectorType } from '@mimamori/watch-engine/document-areas';
import type { UserAgentKind } from '@mimamori/watch-engine/user-agent-kinds';
import type { SelectorType } from './selector-syntax.ts';
import type { ReaderLocale, SiteHistoryLimits } from './target-quota.ts';

export type ActionType = 'click' | 'enter_text' | 'modifier_key' | 'goto_url';
export type ChatNotify = 'none' | 'account' | 'site';
export type FetchMode = 'http' | 'browser';
/** Why a site is paused: the user did it, no slot was free when saved, or the account is on hold. */
export type PausedReason = 'user' | 'quota' | 'hold';

export interface LocatorRecord {
  selector: string;
  /** A page's CSS or XPath; a document's area as its kind names it (docs/product.md#documents-and-data). */
  selectorType: SelectorType | DocumentSelectorType;
  frameSelector: string;
  frameSelectorType: SelectorType | '';
}

/** An action as stored: an enter_text text only sealed. */
export interface ActionRecord {
  type: ActionType;
  locator: LocatorRecord | null;
  value: string;
  sealedValue: string;
  skippable: boolean;
}

export interface LoginRecord {
  actions: ActionRecord[];
  verifyKind: 'cookie' | 'replay';
  verifyCookieName: string;
}

export interface AreaRecord {
  areaId: string;
  label: string;
  content: string;
  locator: LocatorRecord;
  /** The watch engine's AreaOptions, as its validator returned them. */
  options: Record<string, unknown>;
}

/** The settings of a monitored site as saved (secrets sealed). */
export interface TargetSettingsRecord {
  label: string;
  url: string;
  intervalMinutes: number;
  screenshot: boolean;
  useProxy: boolean;
  mailNotify: boolean;
  chatNotify: ChatNotify;
  sealedDiscordWebhook: string;
  userAgentKind: UserAgentKind;
  userAgentValue: string;
  viewportWidth: number;
  viewportHeight: number;
  sealedCookies: string;
  login: LoginRecord | null;
  actions: ActionRecord[];
  areas: AreaRecord[];
  rules: NotificationRules | null;
  fetchMode: FetchMode;
  /** A web page, or a PDF, JSON or XML document read over plain HTTP. */
  contentKind: ContentKind;
  /** Failed checks of one kind in a row before the failure alert (docs/product.md#failure-alerts). */
  failureAlertAfter: number;
  /** Days without an update before the silence alert; 0: off (docs/product.md#silence-alerts). */
  silenceAlertDays: number;
  /** Browser mode: every check renders, never answered by asking the page's requests again (ADR 0031). */
  alwaysRender: boolean;
  /** Whose quiet hours the site keeps (docs/product.md#quiet-hours); `quietHours` for 'own'. */
  quietMode: QuietMode;
  quietHours: QuietHours;
}

export const QUIET_MODES = ['account', 'none', 'own'] as const;
export type QuietMode = (typeof QUIET_MODES)[number];

export interface TargetRecord extends TargetSettingsRecord {
  id: string;
  userId: string;
  version: 1 | 2;
  no: number;
  paused: boolean;
  pausedReason: PausedReason | null;
  isNew: boolean;
  revision: number;
  lastUpdateAt: Date | null;
  lastCheckedAt: Date | null;
  /** While the site is failing: since the run's first failed check, and the kind that counted. */
  failing: { since: Date; kind: string } | null;
  /** The plan's history limits when the site was last saved (docs/product.md#history). */
  history: SiteHistoryLimits;
  /** The account's language and time zone when the site was last saved (checks present them). */
  reader: ReaderLocale;
}
