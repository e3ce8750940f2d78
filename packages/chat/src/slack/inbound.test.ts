import { describe, expect, it } from 'vitest';
import type { ChatPlatformSettings } from '../port.ts';
import { slackAdapter } from './adapter.ts';
import { slackErrorOutcome } from './outcome.ts';
import { slackSignature } from './signature.ts';

const SECRET = 'slack-signing-secret';
const settings: ChatPlatformSettings = {
  slack: {
    apiBase: 'http://127.0.0.1:9/api',
    oauthBase: 'http://127.0.0.1:9',
    clientId: 'client',
    clientSecret: 'secret',
    signingSecret: SECRET,
  },
};
const NOW = 1_800_000_000;

function signed(body: unknown, timestamp = NOW, secret = SECRET) {
  const rawBody = Buffer.from(JSON.stringify(body));
  return {
    headers: {
      'X-Slack-Request-Timestamp': String(timestamp),
      'X-Slack-Signature': slackSignature(secret, timestamp, rawBody),
    },
    rawBody,
  };
}

const uninstalled = {
  type: 'event_callback',
  team_id: 'T1',
  event: { type: 'app_uninstalled' },
  event_id: 'Ev1',
};

describe("Slack's inbound events", () => {
  it('answers the url_verification challenge and turns an uninstall or a revoked bot token into a dead workspace', async () => {
    const adapter = slackAdapter();
    const inbound = adapter.inbound;
    if (!inbound) throw new Error('Slack has inbound events');
    expect(
      await inbound(
        { ...signed({ type: 'url_verification', challenge: 'c-123' }), nowSeconds: NOW },
        settings,
      ),
    ).toEqual({ kind: 'accepted', events: [], response: { contentType: 'text/plain', body: 'c-123' } });
    expect(await inbound({ ...signed(uninstalled), nowSeconds: NOW }, settings)).toEqual({
      kind: 'accepted',
      events: [{ kind: 'dead', match: { teamId: 'T1' }, reason: 'slack_app_uninstalled' }],
    });
    const revoked = { ...uninstalled, event: { type: 'tokens_revoked', tokens: { oauth: [], bot: ['UB'] } } };
    expect(await inbound({ ...signed(revoked), nowSeconds: NOW + 1 }, settings)).toEqual({
      kind: 'accepted',
      events: [{ kind: 'dead', match: { teamId: 'T1' }, reason: 'slack_tokens_revoked' }],
    });
    // A person's own token revoked: the product holds none, the link lives on.
    const userOnly = {
      ...uninstalled,
      event: { type: 'tokens_revoked', tokens: { oauth: ['U1'], bot: [] } },
    };
    expect(await inbound({ ...signed(userOnly), nowSeconds: NOW + 2 }, settings)).toEqual({
      kind: 'accepted',
      events: [],
    });
  });

  it('refuses forged, stale and replayed requests', async () => {
    const inbound = slackAdapter().inbound;
    if (!inbound) throw new Error('Slack has inbound events');
    const forged = signed(uninstalled, NOW, 'another-secret');
    expect(await inbound({ ...forged, nowSeconds: NOW }, settings)).toEqual({
      kind: 'rejected',
      reason: 'bad Slack signature',
    });
    const tampered = signed(uninstalled);
    expect(
      await inbound(
        {
          headers: tampered.headers,
          rawBody: Buffer.from(JSON.stringify({ ...uninstalled, team_id: 'T2' })),
          nowSeconds: NOW,
        },
        settings,
      ),
    ).toMatchObject({ kind: 'rejected', reason: 'bad Slack signature' });
    expect(
      await inbound({ headers: {}, rawBody: tampered.rawBody, nowSeconds: NOW }, settings),
    ).toMatchObject({
      kind: 'rejected',
    });
    expect(await inbound({ ...signed(uninstalled, NOW - 301), nowSeconds: NOW }, settings)).toEqual({
      kind: 'rejected',
      reason: 'stale Slack request timestamp',
    });
    expect(await inbound({ ...signed(uninstalled, NOW + 301), nowSeconds: NOW }, settings)).toMatchObject({
      kind: 'rejected',
    });
    const once = signed(uninstalled, NOW - 10);
    expect(await inbound({ ...once, nowSeconds: NOW }, settings)).toMatchObject({ kind: 'accepted' });
    expect(await inbound({ ...once, nowSeconds: NOW + 5 }, settings)).toEqual({
      kind: 'rejected',
      reason: 'replayed Slack request',
    });
    // Once the window has closed on it, the same request is stale.
    expect(await inbound({ ...once, nowSeconds: NOW + 300 }, settings)).toEqual({
      kind: 'rejected',
      reason: 'stale Slack request timestamp',
    });
    // Without Slack's settings nothing is accepted.
    expect(await inbound({ ...signed(uninstalled), nowSeconds: NOW }, {})).toMatchObject({
      kind: 'rejected',
    });
  });
});

describe("Slack's errors", () => {
  it.each([
    'token_revoked',
    'invalid_auth',
    'account_inactive',
    'channel_not_found',
    'is_archived',
    'not_in_channel',
    'missing_scope',
  ])('%s breaks the link, named for the account page and the mail', (error) => {
    expect(slackErrorOutcome(error)).toEqual({ kind: 'dead', reason: `slack_${error}` });
  });

  it("tells Slack's passing trouble from a message it refused", () => {
    expect(slackErrorOutcome('internal_error')).toMatchObject({ kind: 'retry', afterMs: null });
    expect(slackErrorOutcome('invalid_blocks')).toEqual({ kind: 'refused', reason: 'slack invalid_blocks' });
  });
});

describe('Slack without its settings', () => {
  it('keeps deliveries waiting and refuses a link, rather than throwing', async () => {
    const adapter = slackAdapter();
    const destination = { platform: 'slack' as const, credentials: { botToken: 'xoxb-1', channelId: 'C1' } };
    const message = {
      kind: 'test' as const,
      lang: 'en' as const,
      title: 'Test',
      fields: [],
      body: '',
      link: null,
      images: [],
    };
    expect(await adapter.send(destination, message, {}, { deliveryId: 'd' })).toMatchObject({
      kind: 'retry',
    });
    if (adapter.linking.kind !== 'oauth') throw new Error('Slack is linked by OAuth');
    expect(await adapter.linking.exchange('code', 'https://x/cb', {})).toMatchObject({ ok: false });
    expect(adapter.enabled({})).toBe(false);
    expect(adapter.enabled(settings)).toBe(true);
  });
});
