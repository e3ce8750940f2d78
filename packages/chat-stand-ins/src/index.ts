import type { ChatPlatform } from '@mimamori/chat';
import { chatworkStandIn } from './chatwork.ts';
import { lineStandIn } from './line.ts';
import { slackStandIn } from './slack.ts';
import type { StandIn } from './stand-in.ts';
import { teamsStandIn } from './teams.ts';
import { telegramStandIn } from './telegram.ts';

export { chatworkStandIn } from './chatwork.ts';
export { fileStandInStore, STAND_IN_KEPT } from './file-store.ts';
export {
  LINE_LIMIT_MODES,
  type LineLimitMode,
  type LineStandInState,
  lineStandIn,
  lineUserId,
} from './line.ts';
export { memoryStandInStore } from './memory-store.ts';
export { SLACK_STAND_IN_CHANNELS, SLACK_STAND_IN_TEAM, slackStandIn } from './slack.ts';
export * from './stand-in.ts';
export { teamsStandIn } from './teams.ts';
export {
  TELEGRAM_STAND_IN_USER,
  type TelegramStandInChat,
  type TelegramStandInState,
  type TelegramStandInUser,
  telegramStandIn,
  telegramStandInUser,
} from './telegram.ts';

/**
 * Every platform's stand-in, by platform, with the platform's own limits. One line per platform,
 * so stand-ins built side by side merge without touching each other's lines.
 */
export function chatStandIns(): Partial<Record<ChatPlatform, StandIn>> {
  return {
    slack: slackStandIn(),
    teams: teamsStandIn(),
    line: lineStandIn(),
    chatwork: chatworkStandIn(),
    telegram: telegramStandIn(),
  };
}
