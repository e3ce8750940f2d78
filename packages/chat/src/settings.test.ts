import { describe, expect, it } from 'vitest';
import { ChatSettingsError, chatSettingsFromEnv } from './settings.ts';

describe('chatSettingsFromEnv', () => {
  it('turns on Teams and Chatwork with no variables, and the platforms with secrets only when set', () => {
    expect(chatSettingsFromEnv({})).toEqual({
      teams: { apiBase: '' },
      chatwork: { apiBase: 'https://api.chatwork.com' },
    });
    const settings = chatSettingsFromEnv({
      CHATWORK_API_BASE: 'http://127.0.0.1:8080/dev/chatwork',
      TELEGRAM_BOT_TOKEN: '1:abc',
      TELEGRAM_BOT_USERNAME: 'mimamori_bot',
      TELEGRAM_WEBHOOK_SECRET: 's',
    });
    expect(settings.chatwork).toEqual({ apiBase: 'http://127.0.0.1:8080/dev/chatwork' });
    expect(settings.telegram).toEqual({
      apiBase: 'https://api.telegram.org',
      botToken: '1:abc',
      botUsername: 'mimamori_bot',
      webhookSecret: 's',
      deepLinkBase: 'https://t.me',
    });
    expect(settings.slack).toBeUndefined();
  });

  it('refuses a half-configured platform at start, naming what is missing', () => {
    expect(() => chatSettingsFromEnv({ SLACK_CLIENT_ID: 'id', SLACK_CLIENT_SECRET: 'secret' })).toThrow(
      new ChatSettingsError(
        'Slack is half-configured: set SLACK_SIGNING_SECRET too, or none of its variables',
      ),
    );
  });
});
