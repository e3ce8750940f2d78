import { describe, expect, it } from 'vitest';
import { parseDiscordWebhook, webhookUrl } from './discord-webhook.ts';

const token = 'a'.repeat(68);

describe('parseDiscordWebhook', () => {
  it.each([
    `https://discord.com/api/webhooks/123456789012345678/${token}`,
    `https://discordapp.com/api/webhooks/123456789012345678/${token}`,
    `https://canary.discord.com/api/v10/webhooks/123456789012345678/${token}`,
  ])('accepts %s', (url) => {
    expect(parseDiscordWebhook(url)).toEqual({ id: '123456789012345678', token });
  });

  it.each([
    `http://discord.com/api/webhooks/123456789012345678/${token}`,
    `https://discord.com.evil.example/api/webhooks/123456789012345678/${token}`,
    `https://evil.example/api/webhooks/123456789012345678/${token}`,
    `https://user:pw@discord.com/api/webhooks/123456789012345678/${token}`,
    `https://discord.com:8443/api/webhooks/123456789012345678/${token}`,
    `https://discord.com/api/webhooks/123456789012345678/${token}?wait=true`,
    'https://discord.com/api/webhooks/abc/def',
    'https://discord.com/channels/1/2',
    'not a url',
  ])('refuses %s', (url) => {
    expect(parseDiscordWebhook(url)).toBeNull();
  });

  it('posts to the configured API base', () => {
    expect(webhookUrl({ id: '1', token: 't' }, 'http://127.0.0.1:9/')).toBe(
      'http://127.0.0.1:9/api/webhooks/1/t',
    );
  });
});
