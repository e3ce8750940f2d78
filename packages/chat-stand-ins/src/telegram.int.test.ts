import { crc32, deflateSync } from 'node:zlib';
import { type ChatMessage, TELEGRAM_LIMITS, telegramAdapter } from '@mimamori/chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TELEGRAM_STAND_IN_USER, type TelegramStandInState, telegramStandIn } from './telegram.ts';
import { parseTelegramHtml, visibleText } from './telegram-html.ts';
import { startTestProduct, type TestProduct } from './test-product.ts';

/** The stand-in's clock and the adapter's waits: a wait moves the clock, no wall-clock time passes. */
let clock = 1_800_000_000_000;
const waits: number[] = [];
const adapter = telegramAdapter({
  sleep: async (ms) => {
    waits.push(ms);
    clock += ms;
  },
});
let product: TestProduct;
const me = String(TELEGRAM_STAND_IN_USER.id);

beforeAll(async () => {
  product = await startTestProduct({
    platform: 'telegram',
    adapter,
    standIn: telegramStandIn(),
    now: () => clock,
    formPage: '/dev/telegram/t.me/mimamori_bot',
    settings: (base) => ({
      telegram: {
        apiBase: `${base}/dev/telegram`,
        botToken: '7000001:stand-in-token',
        botUsername: 'mimamori_bot',
        webhookSecret: 'stand-in-webhook-secret',
        deepLinkBase: `${base}/dev/telegram/t.me`,
      },
    }),
  });
});
afterAll(() => product.close());

/** A real PNG of the given size, one grey pixel row repeated. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width, 0x80)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const image = (role: 'before' | 'after', data: Buffer) => ({
  role,
  data,
  contentType: 'image/png' as const,
  filename: `${role}.png`,
  publicUrl: null,
});
const update = (images: ChatMessage['images'] = []): ChatMessage => ({
  kind: 'update',
  lang: 'ja',
  title: '<料金> & 割引が更新されました',
  fields: [{ label: 'サイト', value: '見守り商店 <本店>' }],
  body: '− 月額 1,000円 <税込>\n＋ 月額 1,200円 & 送料無料 🎉\n'.repeat(300),
  link: { label: '履歴を見る', url: 'https://mimamori.example/targets/t1/history?from=1&to=2' },
  images,
});
const send = (chatId: string, message = update()) =>
  adapter.send({ platform: 'telegram', credentials: { chatId } }, message, product.settings, {
    deliveryId: 'd',
  });
const received = async (chatId: string) =>
  (await product.store.list('telegram')).filter((record) => record.chat === chatId);
/** Past the chat's flood window, as a second of Telegram's time going by. */
const later = () => {
  clock += 2_000;
};

describe('Telegram through its stand-in', () => {
  it('links the chat that opens the deep link and presses Start, and tells it so', async () => {
    product.linkedCodes.add('code_1-A');
    const linking = adapter.linking;
    if (linking.kind !== 'code') throw new Error('Telegram links by code');
    const deepLink = linking.startUrl('code_1-A', product.settings);
    expect(deepLink).toBe(`${product.base}/dev/telegram/t.me/mimamori_bot?start=code_1-A`);
    // The address bar takes the link pasted too.
    const opened = await fetch(`${product.base}/dev/telegram/open?url=${encodeURIComponent(deepLink)}`, {
      redirect: 'manual',
    });
    expect(opened.headers.get('location')).toBe('/dev/telegram/t.me/mimamori_bot?start=code_1-A');
    const botPage = await (await fetch(deepLink)).text();
    expect(botPage).toContain('<button type="submit">Start</button>');
    expect(botPage).toContain('name="code" value="code_1-A"');
    // A deep-link base at the stand-in itself opens the same page.
    const atBase = await (await fetch(`${product.base}/dev/telegram/mimamori_bot?start=code_1-A`)).text();
    expect(atBase).toContain('name="code" value="code_1-A"');

    expect((await product.act({ action: 'start', code: 'code_1-A' })).status).toBe(303);
    expect(product.inbound.at(-1)).toMatchObject({
      kind: 'accepted',
      events: [{ kind: 'link', code: 'code_1-A', credentials: { chatId: me }, label: '@mimamori_tester' }],
    });
    // Another person (`?as=`) links their own chat.
    await product.act({ action: 'start', code: 'code_1-A', as: '700000002' });
    expect(product.inbound.at(-1)).toMatchObject({
      events: [{ kind: 'link', credentials: { chatId: '700000002' }, label: '@tester_700000002' }],
    });
    const [reply] = await received(me);
    expect(reply?.body).toMatchObject({
      method: 'sendMessage',
      text: 'Mimamori と連携しました。更新のお知らせはこのチャットに届きます。',
    });
    later();
  });

  it('sends a long Japanese update as escaped HTML within 4,096 characters, then the pictures as an album', async () => {
    waits.length = 0;
    const outcome = await send(me, update([image('before', png(64, 40)), image('after', png(64, 48))]));
    expect(outcome).toEqual({ kind: 'sent' });
    const [album, text] = await received(me);
    const html = String((text?.body as { text?: string } | undefined)?.text);
    const parsed = parseTelegramHtml(html);
    if ('error' in parsed) throw new Error(parsed.error);
    const visible = visibleText(parsed.tokens);
    expect(visible.length).toBeLessThanOrEqual(TELEGRAM_LIMITS.textLength);
    expect(visible.startsWith('<料金> & 割引が更新されました\nサイト: 見守り商店 <本店>\n\n− 月額')).toBe(
      true,
    );
    expect(visible.endsWith('…\n\n履歴を見る')).toBe(true);
    expect(html).toContain(
      '<a href="https://mimamori.example/targets/t1/history?from=1&amp;to=2">履歴を見る</a>',
    );

    expect(album?.body).toMatchObject({ method: 'sendMediaGroup', captions: ['変更前', '変更後'] });
    expect(album?.files.map((file) => file.filename)).toEqual(['before.png', 'after.png']);
    // Right after the text the chat was within its second: the album waited what Telegram said.
    expect(waits).toEqual([1_000]);
    const page = await (await fetch(`${product.base}/dev/telegram`)).text();
    expect(page).toContain(`<img src="/dev/telegram/files/${album?.id}/0"`);
    expect(page).toContain('<strong>&lt;料金&gt; &amp; 割引が更新されました</strong>');
    const photo = await fetch(`${product.base}/dev/telegram/files/${album?.id}/1`);
    expect(Buffer.from(await photo.arrayBuffer()).equals(png(64, 48))).toBe(true);
    later();
  });

  it('sends one picture as a photo, and leaves out one over the photo limits', async () => {
    expect(await send(me, update([image('after', png(32, 32)), image('before', png(9_990, 11))]))).toEqual({
      kind: 'sent',
    });
    const [photo] = await received(me);
    expect(photo?.body).toMatchObject({ method: 'sendPhoto', captions: ['変更後'] });
    later();
  });

  it('hands a 429 on the first message back with the delay Telegram asked for', async () => {
    expect(await send(me)).toEqual({ kind: 'sent' });
    expect(await send(me)).toMatchObject({ kind: 'retry', afterMs: 1_000 });
    later();
  });

  it('follows a group that became a supergroup, and reads a missing chat as dead', async () => {
    await product.store.writeState<TelegramStandInState>('telegram', {
      ...(await product.store.readState<TelegramStandInState>('telegram', {} as TelegramStandInState)),
      chats: {
        ...(await product.store.readState<TelegramStandInState>('telegram', {} as TelegramStandInState))
          .chats,
        '-4001': { type: 'group', title: '経理', blocked: false, migratedTo: '-1004001' },
        '-1004001': { type: 'supergroup', title: '経理', blocked: false },
      },
    });
    expect(await send('-4001')).toEqual({ kind: 'sent' });
    expect(await received('-1004001')).toHaveLength(1);
    expect(await send('-999')).toEqual({ kind: 'dead', reason: 'telegram_chat_not_found' });
  });

  it('reads a wrong bot token as the product’s problem, not a dead chat', async () => {
    const outcome = await adapter.send(
      { platform: 'telegram', credentials: { chatId: me } },
      update(),
      {
        telegram: {
          ...(product.settings.telegram as NonNullable<typeof product.settings.telegram>),
          botToken: '1:wrong',
        },
      },
      { deliveryId: 'd' },
    );
    expect(outcome).toMatchObject({ kind: 'retry', afterMs: 15 * 60 * 1000 });
    expect(JSON.stringify(outcome)).not.toContain('1:wrong');
  });

  it('refuses what Telegram refuses: 4,097 characters, a long caption, an album of one, a photo too tall, bad HTML', async () => {
    const api = (method: string, body: FormData | object) =>
      fetch(`${product.base}/dev/telegram/bot7000001:stand-in-token/${method}`, {
        method: 'POST',
        ...(body instanceof FormData
          ? { body }
          : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
    const group = '-1004001';
    const answer = async (response: Response) => ({ status: response.status, ...(await response.json()) });
    later();
    expect(
      await answer(await api('sendMessage', { chat_id: group, text: 'あ'.repeat(4_097) })),
    ).toMatchObject({
      status: 400,
      description: 'Bad Request: message is too long',
    });
    expect(
      await answer(await api('sendMessage', { chat_id: group, text: 'a < b', parse_mode: 'HTML' })),
    ).toMatchObject({
      status: 400,
    });
    const photo = (data: Buffer, caption: string) => {
      const form = new FormData();
      form.append('chat_id', group);
      form.append('caption', caption);
      form.append('photo', new Blob([new Uint8Array(data)], { type: 'image/png' }), 'p.png');
      return form;
    };
    expect((await answer(await api('sendPhoto', photo(png(8, 8), 'x'.repeat(1_025))))).description).toBe(
      'Bad Request: message caption is too long',
    );
    expect((await answer(await api('sendPhoto', photo(png(10, 9_995), '')))).description).toBe(
      'Bad Request: PHOTO_INVALID_DIMENSIONS',
    );
    const single = new FormData();
    single.append('chat_id', group);
    single.append('media', JSON.stringify([{ type: 'photo', media: 'attach://a' }]));
    single.append('a', new Blob([new Uint8Array(png(8, 8))], { type: 'image/png' }), 'a.png');
    expect((await api('sendMediaGroup', single)).status).toBe(400);
    expect((await api('sendMessage', { chat_id: group, text: '4,096 まで' })).status).toBe(200);
    expect(
      (await fetch(`${product.base}/dev/telegram/bot1:nope/sendMessage`, { method: 'POST' })).status,
    ).toBe(401);
  });

  it('reads a block on the page as the dead update, and the blocked chat as dead when sent to', async () => {
    await product.act({ action: 'block' });
    expect(product.inbound.at(-1)).toMatchObject({
      kind: 'accepted',
      events: [{ kind: 'dead', match: { chatId: me } }],
    });
    later();
    expect(await send(me)).toEqual({
      kind: 'dead',
      reason: 'telegram_blocked',
    });
  });

  it('refuses an update with another secret token and one sent twice', async () => {
    const hook = (secret: string, updateId: number) =>
      fetch(`${product.base}/hooks/telegram`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
        body: JSON.stringify({
          update_id: updateId,
          message: { chat: { id: 1, type: 'private' }, text: '/start code_1-A' },
        }),
      });
    expect((await hook('forged', 5)).status).toBe(401);
    expect((await hook('stand-in-webhook-secret', 5)).status).toBe(200);
    expect((await hook('stand-in-webhook-secret', 5)).status).toBe(401);
  });
});
