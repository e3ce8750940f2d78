import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatPlatformSettings, InboundRequest } from '../port.ts';
import { LINE_EVENT_MAX_AGE_SECONDS, lineAdapter } from './line-adapter.ts';
import { LINE_LIMITS, lineMessages } from './line-message.ts';
import { lineRetryKey } from './line-signature.ts';

const settings: ChatPlatformSettings = {
  line: {
    apiBase: 'http://127.0.0.1:9/unused',
    channelAccessToken: 'token',
    channelSecret: 'channel-secret',
    botBasicId: '@mimamori',
    addFriendUrl: 'https://line.me/R/ti/p/@mimamori',
  },
};
const NOW = 1_800_000_000;
const USER = `U${'a'.repeat(31)}1`;

/** A webhook request as LINE sends it: the body signed with the channel secret (not with the adapter's own helper). */
function webhook(events: object[], secret = 'channel-secret', nowSeconds = NOW): InboundRequest {
  const rawBody = Buffer.from(JSON.stringify({ destination: 'Ubot', events }));
  const signature = createHmac('sha256', secret).update(rawBody).digest('base64');
  return { headers: { 'x-line-signature': signature }, rawBody, nowSeconds };
}

function event(
  type: string,
  extra: object = {},
  id = `01H${type}${Math.random()}`,
  timestampMs = NOW * 1000,
) {
  return {
    type,
    mode: 'active',
    timestamp: timestampMs,
    webhookEventId: id,
    source: { type: 'user', userId: USER },
    replyToken: 'r',
    ...extra,
  };
}

describe('LINE inbound', () => {
  it('links the user who sent a code, full-width digits folded, and reads unfollow and leave as dead', async () => {
    const adapter = lineAdapter();
    const result = await adapter.inbound?.(
      webhook([
        event('follow'),
        event('message', { message: { type: 'text', id: '1', text: ' ＡＢＣ１２３ ' } }),
        event('message', { message: { type: 'text', id: '2', text: 'こんにちは、よろしく' } }),
        event('message', {
          source: { type: 'group', groupId: `C${'d'.repeat(28)}9f0e`, userId: USER },
          message: { type: 'text', id: '3', text: 'GRP-CODE_1' },
        }),
        event('unfollow'),
        event('leave', { source: { type: 'group', groupId: `C${'b'.repeat(32)}` } }),
      ]),
      settings,
    );
    expect(result?.kind).toBe('accepted');
    expect(result?.kind === 'accepted' && result.events).toEqual([
      { kind: 'link', code: 'ABC123', credentials: { to: USER }, label: 'LINE user …aaa1' },
      // A code sent in a group links the group, whoever sent it.
      {
        kind: 'link',
        code: 'GRP-CODE_1',
        credentials: { to: `C${'d'.repeat(28)}9f0e` },
        label: 'LINE group …9f0e',
      },
      { kind: 'dead', match: { to: USER }, reason: 'line_blocked' },
      {
        kind: 'dead',
        match: { to: `C${'b'.repeat(32)}` },
        reason: 'line_removed_from_group',
      },
    ]);
  });

  it("answers the console's verify request (no events) and refuses a forged, stale or replayed one", async () => {
    const adapter = lineAdapter();
    expect(await adapter.inbound?.(webhook([]), settings)).toEqual({ kind: 'accepted', events: [] });

    const forged = await adapter.inbound?.(webhook([event('unfollow')], 'another-secret'), settings);
    expect(forged).toEqual({ kind: 'rejected', reason: 'bad signature' });
    const unsigned = webhook([event('unfollow')]);
    expect(await adapter.inbound?.({ ...unsigned, headers: {} }, settings)).toMatchObject({
      kind: 'rejected',
    });
    const tampered = webhook([event('unfollow')]);
    tampered.rawBody = Buffer.from(tampered.rawBody.toString().replace(USER, `U${'c'.repeat(32)}`));
    expect(await adapter.inbound?.(tampered, settings)).toEqual({
      kind: 'rejected',
      reason: 'bad signature',
    });

    const old = (NOW - LINE_EVENT_MAX_AGE_SECONDS - 1) * 1000;
    const stale = await adapter.inbound?.(webhook([event('unfollow', {}, 'stale-1', old)]), settings);
    expect(stale).toEqual({ kind: 'rejected', reason: 'stale or replayed events' });

    const once = webhook([event('unfollow', {}, 'replayed-1')]);
    expect((await adapter.inbound?.(once, settings))?.kind).toBe('accepted');
    expect(await adapter.inbound?.(once, settings)).toEqual({
      kind: 'rejected',
      reason: 'stale or replayed events',
    });
  });

  it('gives the add-friend URL to start from', () => {
    const linking = lineAdapter().linking;
    expect(linking.kind === 'code' && linking.startUrl('ABC123', settings)).toBe(
      'https://line.me/R/ti/p/@mimamori',
    );
  });
});

describe('LINE messages', () => {
  const image = (bytes: number, publicUrl: string | null) => ({
    role: 'after' as const,
    data: Buffer.alloc(bytes),
    contentType: 'image/png' as const,
    filename: 'after.png',
    publicUrl,
  });
  const message = (body: string, images: ChatMessage['images'] = []): ChatMessage => ({
    kind: 'update',
    lang: 'ja',
    title: '価格表が更新されました',
    fields: [
      { label: 'サイト', value: '例のお店' },
      { label: '場所', value: '料金' },
    ],
    body,
    link: { label: '履歴を見る', url: 'https://mimamori.example/targets/1/history' },
    images,
  });

  it('cuts a long Japanese change to 5,000 UTF-16 units and keeps the title and the link', () => {
    // Emoji are two UTF-16 units each: the cut must not split one.
    const [text] = lineMessages(message('価格が変わりました😀'.repeat(1_000)));
    expect(text?.type).toBe('text');
    const said = text?.type === 'text' ? text.text : '';
    expect(said.length).toBeLessThanOrEqual(LINE_LIMITS.textLength);
    expect(said.length).toBeGreaterThan(LINE_LIMITS.textLength - 10);
    expect(said.startsWith('価格表が更新されました\nサイト: 例のお店\n場所: 料金\n\n価格が')).toBe(true);
    expect(said.endsWith('…\n\n履歴を見る\nhttps://mimamori.example/targets/1/history')).toBe(true);
    expect(said).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('sends pictures by their public HTTPS URL with a preview within 1 MB, and leaves out those LINE could not fetch', () => {
    const messages = lineMessages(
      message('変更', [
        // The product's image link: its JPEG and its preview are served apart, whatever the picture's size.
        image(LINE_LIMITS.previewBytes + 1, 'https://mimamori.example/i/abc.def?jpeg=1'),
        image(500_000, null),
        image(500_000, 'http://mimamori.example/i/plain'),
        // Elsewhere, a picture is its own preview only within 1 MB.
        image(LINE_LIMITS.previewBytes + 1, 'https://cdn.example/big.png'),
        image(500_000, 'https://cdn.example/small.png'),
        image(500_000, 'http://127.0.0.1:8080/i/local'),
      ]),
    );
    expect(messages.slice(1)).toEqual([
      {
        type: 'image',
        originalContentUrl: 'https://mimamori.example/i/abc.def?jpeg=1',
        previewImageUrl: 'https://mimamori.example/i/abc.def?preview=1',
      },
      {
        type: 'image',
        originalContentUrl: 'https://cdn.example/small.png',
        previewImageUrl: 'https://cdn.example/small.png',
      },
      {
        type: 'image',
        originalContentUrl: 'http://127.0.0.1:8080/i/local?jpeg=1',
        previewImageUrl: 'http://127.0.0.1:8080/i/local?preview=1',
      },
    ]);
  });

  it('names every try of one delivery with the same UUID retry key, and other deliveries with others', () => {
    expect(lineRetryKey('delivery-1')).toBe(lineRetryKey('delivery-1'));
    expect(lineRetryKey('delivery-1')).not.toBe(lineRetryKey('delivery-2'));
    expect(lineRetryKey('delivery-1')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
