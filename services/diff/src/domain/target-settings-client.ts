import { status } from '@grpc/grpc-js';
import type { targetV1 } from '@mimamori/contracts';
import { unary } from '@mimamori/runtime';
import { type WatchSettingsSource, watchSettingsOf } from './watch-settings.ts';

/**
 * Reads a site's areas, options and rules from the target service (GetTarget, as the site's own
 * user). targets.* events carry the check to run but not the options and rules, so this is the
 * one place they come from; the caller caches the answer by the site's revision.
 */
export function targetSettingsClient(connect: () => targetV1.TargetServiceClient): WatchSettingsSource {
  // Connected on first use: in one process the target service may start after this one is built.
  let client: targetV1.TargetServiceClient | undefined;
  return {
    async read(userId, targetId) {
      client ??= connect();
      try {
        const answer = await unary(client, 'getTarget', { caller: { userId, held: false }, targetId });
        const settings = answer.settings;
        if (!settings) return null;
        return {
          revision: Number(answer.revision),
          settings: watchSettingsOf({
            areas: settings.areas.map((area) => ({ areaId: area.areaId, optionsJson: area.optionsJson })),
            rulesJson: settings.rulesJson,
            screenshot: settings.screenshot,
          }),
        };
      } catch (error) {
        if ((error as { code?: number }).code === status.NOT_FOUND) return null;
        throw error;
      }
    },
  };
}
