import { chatworkAdapter } from './chatwork/index.ts';
import { lineAdapter } from './line/index.ts';
import type { ChatAdapter, ChatPlatform } from './port.ts';
import { slackAdapter } from './slack/index.ts';
import { teamsAdapter } from './teams/index.ts';
import { telegramAdapter } from './telegram/index.ts';

/**
 * Every platform's adapter, by platform; undefined for a platform not built yet. One line per
 * platform, so adapters built side by side merge without touching each other's lines.
 */
export function chatAdapters(): Record<ChatPlatform, ChatAdapter | undefined> {
  return {
    slack: slackAdapter(),
    teams: teamsAdapter(),
    line: lineAdapter(),
    chatwork: chatworkAdapter(),
    telegram: telegramAdapter(),
  };
}

/** The platforms this run can link and send to: an adapter exists and its settings are given. */
export function enabledChatPlatforms(
  adapters: Record<ChatPlatform, ChatAdapter | undefined>,
  settings: Parameters<ChatAdapter['enabled']>[0],
): ChatPlatform[] {
  return Object.values(adapters)
    .filter((adapter): adapter is ChatAdapter => adapter?.enabled(settings) === true)
    .map((adapter) => adapter.platform);
}
