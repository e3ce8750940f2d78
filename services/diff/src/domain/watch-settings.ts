import {
  type AreaOptions,
  DEFAULT_AREA_OPTIONS,
  type NotificationRules,
  validateAreaOptions,
  validateRuleGroups,
} from '@mimamori/watch-engine';

export interface WatchedArea {
  areaId: string;
  options: AreaOptions;
}

/** What the diff service needs of a site to judge a check. */
export interface WatchSettings {
  areas: WatchedArea[];
  /** Null: every update notifies. */
  rules: NotificationRules | null;
  screenshot: boolean;
}

/** The settings as a check carries them: options and rules as the target service's JSON text. */
export interface CarriedWatchSettings {
  areas: { areaId: string; optionsJson: string }[];
  rulesJson: string;
  screenshot: boolean;
}

/**
 * Options and rules were validated at registration; read again through the engine's validators
 * so missing fields take the engine's defaults. Options that no longer validate fall back to the
 * defaults rather than stopping the site's checks; rules that no longer validate are kept as they
 * are, so the engine reports them as the check's error.
 */
export function watchSettingsOf(site: CarriedWatchSettings): WatchSettings {
  const areaIds = site.areas.map((area) => area.areaId);
  return {
    areas: site.areas.map((area) => ({ areaId: area.areaId, options: optionsOf(area.optionsJson) })),
    rules: rulesOf(site.rulesJson, areaIds),
    screenshot: site.screenshot,
  };
}

function optionsOf(json: string): AreaOptions {
  if (!json) return DEFAULT_AREA_OPTIONS;
  const checked = validateAreaOptions(parse(json));
  return checked.ok ? checked.value : DEFAULT_AREA_OPTIONS;
}

function rulesOf(json: string, areaIds: readonly string[]): NotificationRules | null {
  if (!json) return null;
  const parsed = parse(json);
  const checked = validateRuleGroups(parsed, areaIds);
  return checked.ok ? checked.value : (parsed as NotificationRules);
}

function parse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}
