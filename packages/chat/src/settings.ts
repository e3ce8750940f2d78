import type { ChatPlatformSettings } from './port.ts';

/** Thrown at start when a platform is half-configured: some of its variables set, not all. */
export class ChatSettingsError extends Error {}

/** The environment, or a service's parsed config holding these variables beside its own. */
type Env = Readonly<Record<string, unknown>>;

/**
 * Each platform's settings from the environment (docs/channels.md). A platform with a product-wide
 * secret is on only when every one of its variables is set, off when none is, and refused when
 * some are: a half-set platform would fail only when a user tries to link it. Teams and Chatwork
 * need no product secret and are always on; their `*_API_BASE` points them at a stand-in.
 */
export function chatSettingsFromEnv(env: Env): ChatPlatformSettings {
  const settings: ChatPlatformSettings = {
    teams: { apiBase: value(env, 'TEAMS_API_BASE') },
    chatwork: { apiBase: value(env, 'CHATWORK_API_BASE') || 'https://api.chatwork.com' },
  };
  const slack = group(env, 'Slack', {
    apiBase: ['SLACK_API_BASE', 'https://slack.com/api'],
    oauthBase: ['SLACK_OAUTH_BASE', 'https://slack.com'],
    clientId: ['SLACK_CLIENT_ID'],
    clientSecret: ['SLACK_CLIENT_SECRET'],
    signingSecret: ['SLACK_SIGNING_SECRET'],
  });
  if (slack) settings.slack = slack;
  const line = group(env, 'LINE', {
    apiBase: ['LINE_API_BASE', 'https://api.line.me'],
    channelAccessToken: ['LINE_CHANNEL_ACCESS_TOKEN'],
    channelSecret: ['LINE_CHANNEL_SECRET'],
    botBasicId: ['LINE_BOT_BASIC_ID'],
    addFriendUrl: ['LINE_ADD_FRIEND_URL'],
  });
  if (line) settings.line = line;
  const telegram = group(env, 'Telegram', {
    apiBase: ['TELEGRAM_API_BASE', 'https://api.telegram.org'],
    botToken: ['TELEGRAM_BOT_TOKEN'],
    botUsername: ['TELEGRAM_BOT_USERNAME'],
    webhookSecret: ['TELEGRAM_WEBHOOK_SECRET'],
    deepLinkBase: ['TELEGRAM_DEEP_LINK_BASE', 'https://t.me'],
  });
  if (telegram) settings.telegram = telegram;
  return settings;
}

/** The environment variables `chatSettingsFromEnv` reads, for the services' zod env schemas. */
export const CHAT_ENV_NAMES = [
  'SLACK_API_BASE',
  'SLACK_OAUTH_BASE',
  'SLACK_CLIENT_ID',
  'SLACK_CLIENT_SECRET',
  'SLACK_SIGNING_SECRET',
  'TEAMS_API_BASE',
  'LINE_API_BASE',
  'LINE_CHANNEL_ACCESS_TOKEN',
  'LINE_CHANNEL_SECRET',
  'LINE_BOT_BASIC_ID',
  'LINE_ADD_FRIEND_URL',
  'CHATWORK_API_BASE',
  'TELEGRAM_API_BASE',
  'TELEGRAM_BOT_TOKEN',
  'TELEGRAM_BOT_USERNAME',
  'TELEGRAM_WEBHOOK_SECRET',
  'TELEGRAM_DEEP_LINK_BASE',
] as const;

function value(env: Env, name: string): string {
  const raw = env[name];
  return typeof raw === 'string' ? raw.trim() : '';
}

/**
 * A platform's variables: `[name]` is required, `[name, default]` has a default (the real API)
 * and does not count toward "configured". Null when none of the required ones is set.
 */
function group<K extends string>(
  env: Env,
  platform: string,
  spec: Record<K, [string] | [string, string]>,
): Record<K, string> | null {
  const entries = Object.entries(spec) as [K, [string] | [string, string]][];
  const required = entries.filter(([, [, fallback]]) => fallback === undefined);
  const set = required.filter(([, [name]]) => value(env, name) !== '');
  if (set.length === 0) return null;
  if (set.length < required.length) {
    const missing = required.filter(([, [name]]) => value(env, name) === '').map(([, [name]]) => name);
    throw new ChatSettingsError(
      `${platform} is half-configured: set ${missing.join(', ')} too, or none of its variables`,
    );
  }
  return Object.fromEntries(
    entries.map(([key, [name, fallback]]) => [key, value(env, name) || (fallback ?? '')]),
  ) as Record<K, string>;
}

/**
 * The settings as a service is given them: fixed, or read at each use where the stand-ins'
 * address is known only once the single-process product listens.
 */
export type ChatSettingsSource = ChatPlatformSettings | (() => ChatPlatformSettings);

export function readChatSettings(source: ChatSettingsSource | undefined): ChatPlatformSettings {
  if (!source) return {};
  return typeof source === 'function' ? source() : source;
}
