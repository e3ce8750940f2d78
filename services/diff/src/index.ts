export { diffEnv } from './config.ts';
export { targetSettingsClient } from './domain/target-settings-client.ts';
export type { WatchSettings, WatchSettingsSource } from './domain/watch-settings.ts';
export { createDiffService, type DiffServiceOptions } from './service.ts';
