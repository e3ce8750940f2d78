import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES, parsePreferences, serializePreferences } from './list-preferences.ts';

describe('list preferences', () => {
  it('reads back what was stored', () => {
    const chosen = { order: { key: 'updated' as const, descending: true }, showAll: false };
    expect(parsePreferences(serializePreferences(chosen))).toEqual(chosen);
  });

  it('starts in registration order with paused sites shown', () => {
    expect(parsePreferences(null)).toEqual({ order: { key: 'no', descending: false }, showAll: true });
    expect(DEFAULT_PREFERENCES.showAll).toBe(true);
  });

  it('falls back field by field on a malformed or foreign value', () => {
    expect(parsePreferences('{not json')).toEqual(DEFAULT_PREFERENCES);
    expect(parsePreferences('"text"')).toEqual(DEFAULT_PREFERENCES);
    expect(parsePreferences('{"order":{"key":"price"},"show_all":false}')).toEqual({
      order: DEFAULT_PREFERENCES.order,
      showAll: false,
    });
    expect(parsePreferences('{"order":{"key":"label","descending":"yes"},"show_all":1}')).toEqual({
      order: { key: 'label', descending: false },
      showAll: true,
    });
  });
});
