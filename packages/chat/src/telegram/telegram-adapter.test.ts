import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatPlatformSettings, InboundRequest } from '../port.ts';
import { telegramAdapter } from './telegram-adapter.ts';
import { TELEGRAM_LIMITS, telegramPhotos, telegramText } from './telegram-message.ts';

const settings: ChatPlatformSettings = {
  telegram: {
    apiBase: 'http://127.0.0.1:9/unused',
    botToken: '123456:secret-token',
    botUsername: 'mimamori_bot',
    webhookSecret: 'hook-secret_1',
    deepLinkBase: 'https://t.me',
  },
};

function update(body: object, secret: string | null = 'hook-secret_1'): InboundRequest {
  return {
    headers: secret === null ? {} : { 'x-telegram-bot-api-secret-token': secret },
    rawBody: Buffer.from(JSON.stringify(body)),
    nowSeconds: 1_800_000_000,
  };
}

const privateChat = { id: 42, type: 'private', username: 'hanako', first_name: 'Hanako' };

describe('Telegram inbound', () => {
  it('links the chat a /start code came from, named by the group title or the @username', async () => {
    const adapter = telegramAdapter();
    const direct = await adapter.inbound?.(
      update({ update_id: 1, message: { chat: privateChat, text: '/start abc_DEF-1' } }),
      settings,
    );
    expect(direct).toMatchObject({
      kind: 'accepted',
      events: [{ kind: 'link', code: 'abc_DEF-1', credentials: { chatId: '42' }, label: '@hanako' }],
    });
    const group = await adapter.inbound?.(
      update({
        update_id: 2,
        message: { chat: { id: -100, type: 'group', title: '経理チーム' }, text: '/start@Mimamori_Bot xyz' },
      }),
      settings,
    );
    expect(group).toMatchObject({
      events: [{ kind: 'link', code: 'xyz', credentials: { chatId: '-100' }, label: '経理チーム' }],
    });
    // Meant for another bot in the group, or no code: nothing to link.
    const other = await adapter.inbound?.(
      update({ update_id: 3, message: { chat: privateChat, text: '/start@other_bot xyz' } }),
      settings,
    );
    const bare = await adapter.inbound?.(
      update({ update_id: 4, message: { chat: privateChat, text: '/start' } }),
      settings,
    );
    expect(other).toMatchObject({ kind: 'accepted', events: [] });
    expect(bare).toMatchObject({ kind: 'accepted', events: [] });
  });

  it('reads a blocked or removed bot as dead and a group upgraded to a supergroup as moved', async () => {
    const adapter = telegramAdapter();
    const blocked = await adapter.inbound?.(
      update({ update_id: 10, my_chat_member: { chat: privateChat, new_chat_member: { status: 'kicked' } } }),
      settings,
    );
    expect(blocked).toMatchObject({
      events: [{ kind: 'dead', match: { chatId: '42' }, reason: 'telegram_blocked' }],
    });
    const left = await adapter.inbound?.(
      update({
        update_id: 11,
        my_chat_member: { chat: { id: -5, type: 'group' }, new_chat_member: { status: 'left' } },
      }),
      settings,
    );
    expect(left).toMatchObject({
      events: [{ kind: 'dead', match: { chatId: '-5' }, reason: 'telegram_removed_from_chat' }],
    });
    const moved = await adapter.inbound?.(
      update({
        update_id: 12,
        message: { chat: { id: -5, type: 'group' }, migrate_to_chat_id: -1001234567890 },
      }),
      settings,
    );
    expect(moved).toMatchObject({
      events: [{ kind: 'moved', match: { chatId: '-5' }, credentials: { chatId: '-1001234567890' } }],
    });
  });

  it('refuses an update without the secret token, with another one, or sent again', async () => {
    const adapter = telegramAdapter();
    const body = {
      update_id: 20,
      my_chat_member: { chat: privateChat, new_chat_member: { status: 'kicked' } },
    };
    expect(await adapter.inbound?.(update(body, null), settings)).toEqual({
      kind: 'rejected',
      reason: 'bad secret token',
    });
    expect(await adapter.inbound?.(update(body, 'hook-secret_2'), settings)).toEqual({
      kind: 'rejected',
      reason: 'bad secret token',
    });
    expect(await adapter.inbound?.(update(body, 'hook-secret_1x'), settings)).toEqual({
      kind: 'rejected',
      reason: 'bad secret token',
    });
    expect((await adapter.inbound?.(update(body), settings))?.kind).toBe('accepted');
    expect(await adapter.inbound?.(update(body), settings)).toEqual({
      kind: 'rejected',
      reason: 'replayed update',
    });
  });

  it('starts from the deep link with the code, and gives no link for a code Telegram would not carry', () => {
    const linking = telegramAdapter().linking;
    if (linking.kind !== 'code') throw new Error('Telegram links by code');
    expect(linking.startUrl('abc_DEF-1', settings)).toBe('https://t.me/mimamori_bot?start=abc_DEF-1');
    expect(linking.startUrl('has space', settings)).toBe('');
    expect(linking.startUrl('x'.repeat(65), settings)).toBe('');
  });
});

describe('Telegram messages', () => {
  const message: ChatMessage = {
    kind: 'update',
    lang: 'en',
    title: 'Prices <changed> & more',
    fields: [{ label: 'Site', value: 'A&B <shop>' }],
    body: 'x < y && y > z\n'.repeat(600),
    link: { label: 'History', url: 'https://mimamori.example/t/1?a=1&b="2"' },
    images: [],
  };

  it('escapes <, > and & and fits what the reader sees in 4,096 characters, link kept', () => {
    const html = telegramText(message);
    expect(
      html.startsWith(
        '<b>Prices &lt;changed&gt; &amp; more</b>\n<b>Site</b>: A&amp;B &lt;shop&gt;\n\nx &lt; y &amp;&amp;',
      ),
    ).toBe(true);
    expect(
      html.endsWith('…\n\n<a href="https://mimamori.example/t/1?a=1&amp;b=&quot;2&quot;">History</a>'),
    ).toBe(true);
    const visible = html
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
    expect(visible.length).toBeLessThanOrEqual(TELEGRAM_LIMITS.textLength);
    expect(visible.length).toBeGreaterThan(TELEGRAM_LIMITS.textLength - 10);
  });

  it('captions pictures by their role and leaves out one over the photo limits', () => {
    const png = (width: number, height: number) => {
      const data = Buffer.alloc(33);
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(data);
      data.write('IHDR', 12, 'ascii');
      data.writeUInt32BE(width, 16);
      data.writeUInt32BE(height, 20);
      return data;
    };
    const image = (role: 'before' | 'after', data: Buffer) => ({
      role,
      data,
      contentType: 'image/png' as const,
      filename: `${role}.png`,
      publicUrl: null,
    });
    const photos = telegramPhotos({
      ...message,
      lang: 'ja',
      images: [
        image('before', png(1280, 800)),
        image('after', png(1280, 9000)),
        image('after', png(800, 600)),
      ],
    });
    expect(photos.map((photo) => photo.caption)).toEqual(['変更前', '変更後']);
    expect(photos.map((photo) => photo.field)).toEqual(['photo0', 'photo1']);
  });
});
