import { REGISTRATION_ORDER, type SortKey, type TargetSort } from './target-order.ts';

/**
 * The site list's sort and 'show paused too' choice, kept in the browser (docs/product.md#target-list;
 * local state `targets`: order, show_all). The rows themselves are not stored: they belong to
 * one account, and the browser may be shared.
 */
export type ListPreferences = { order: TargetSort; showAll: boolean };

const STORAGE_KEY = 'mimamori.targets';
const SORT_KEYS: readonly SortKey[] = ['no', 'label', 'url', 'updated', 'checked'];

export const DEFAULT_PREFERENCES: ListPreferences = { order: REGISTRATION_ORDER, showAll: true };

/** Reads the stored choice; anything missing or malformed falls back to the default. */
export function parsePreferences(stored: string | null): ListPreferences {
  let value: unknown;
  try {
    value = JSON.parse(stored ?? 'null');
  } catch {
    return DEFAULT_PREFERENCES;
  }
  const record = (value ?? {}) as { order?: { key?: unknown; descending?: unknown }; show_all?: unknown };
  const key = SORT_KEYS.find((candidate) => candidate === record.order?.key);
  return {
    order: key ? { key, descending: record.order?.descending === true } : DEFAULT_PREFERENCES.order,
    showAll: typeof record.show_all === 'boolean' ? record.show_all : DEFAULT_PREFERENCES.showAll,
  };
}

export function serializePreferences(preferences: ListPreferences): string {
  return JSON.stringify({ order: preferences.order, show_all: preferences.showAll });
}

export function loadPreferences(): ListPreferences {
  try {
    return parsePreferences(localStorage.getItem(STORAGE_KEY));
  } catch {
    return DEFAULT_PREFERENCES;
  }
}

export function savePreferences(preferences: ListPreferences): void {
  try {
    localStorage.setItem(STORAGE_KEY, serializePreferences(preferences));
  } catch {
    // Storage can be disabled; the choice then lasts for this page only.
  }
}
