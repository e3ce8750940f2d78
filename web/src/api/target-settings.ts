import type {
  SavedTarget,
  StoredTarget as StoredTargetAnswer,
  StoredTargetSettings as StoredTargetSettingsAnswer,
  TargetSettingsInput as TargetSettingsBodyInput,
} from '@mimamori/http-api';
import type { AreaOptions } from '@mimamori/watch-engine/area-options';
import type { RuleOperand, RuleOperator } from '@mimamori/watch-engine/notification-rules';
import { apiRequest } from './client.ts';

/** An area's options and its rules' words are the watch engine's own (docs/product.md#areas, docs/product.md#rules). */
export type { AreaOptions, RuleOperand, RuleOperator };
export type RuleCondition = { areaId: string; operand: RuleOperand; operator: RuleOperator; value: string };
export type RuleGroup = { combine: 'and' | 'or'; conditions: RuleCondition[] };
export type NotificationRules = { combine: 'and' | 'or'; groups: RuleGroup[] };

export type { ChatNotify, FetchMode, SavedTarget, StoredAction } from '@mimamori/http-api';

// The HTTP shapes leave an area's options and the rule groups to the watch engine (the target
// service checks them); here they take the engine's types.
type EngineWords = { areas: AreaSettings[]; rules: NotificationRules | null };

export type AreaSettings = Omit<StoredTargetSettingsAnswer['areas'][number], 'options'> & {
  options: AreaOptions;
};

/** A v2 site's settings as POST /api/v2/target/register and /update take them. */
export type TargetSettingsInput = Omit<TargetSettingsBodyInput, 'areas' | 'rules'> & {
  areas: AreaSettings[];
  rules?: NotificationRules;
};

/** The stored settings (GET /api/v2/target): secrets are never sent back, only whether they are set. */
export type StoredTargetSettings = Omit<StoredTargetSettingsAnswer, keyof EngineWords> & EngineWords;

/** A v1 site has no v2 settings (null). */
export type StoredTarget = Omit<StoredTargetAnswer, 'settings'> & { settings: StoredTargetSettings | null };

export function fetchTargetSettings(id: string, signal?: AbortSignal): Promise<StoredTarget> {
  return apiRequest<StoredTarget>(`/api/v2/target?id=${encodeURIComponent(id)}`, signal ? { signal } : {});
}

export function registerTarget(settings: TargetSettingsInput): Promise<SavedTarget> {
  return apiRequest<SavedTarget>('/api/v2/target/register', { method: 'POST', body: settings });
}

/** `revision` is the one the edit started from: a site saved since answers 409 edit_conflict. */
export function updateTarget(
  id: string,
  settings: TargetSettingsInput,
  revision: number,
): Promise<SavedTarget> {
  return apiRequest<SavedTarget>('/api/v2/target/update', {
    method: 'POST',
    body: { ...settings, target_v2_id: id, revision },
  });
}
