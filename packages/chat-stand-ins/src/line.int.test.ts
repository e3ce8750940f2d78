import { type ChatMessage, LINE_LIMITS, lineAdapter } from '@mimamori/chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineStandIn, lineUserId } from './line.ts';
import { startTestProduct, type TestProduct } from './test-product.ts';

const adapter = lineAdapter();
let product: TestProduct;

beforeAll(async () => {
  product = await startTestProduct({
    platform: 'line',
    adapter,
    standIn: lineStandIn(),
    settings: (base) => ({
      line: {
        apiBase: `${base}/dev/line`,
        channelAccessToken: 'line-channel-token',
        channelSecret: 'line-channel-secret',
        botBasicId: '@mimamori',
        addFriendUrl: `${base}/dev/line/friend`,
      },
    }),
  });
});
afterAll(() => product.close());

const you = lineUserId('you');
const image = (role: 'before' | 'after', publicUrl: string | null, bytes = 40_000) => ({
  role,
  data: Buffer.alloc(bytes, 1),
  contentType: 'image/png' as const,
  filename: `${role}.png`,
  publicUrl,
});
const update = (images: ChatMessage['images'] = []): ChatMessage => ({
  kind: 'update',
  lang: 'ja',
  title: '料金ページが更新されました',
  fields: [
    { label: 'サイト', value: '見守り商店' },
    { label: 'エリア', value: '料金表' },
  ],
  // A long Japanese diff: far over LINE's 5,000 units, with two-unit characters.
  body: '− 月額プラン 1,000円\n＋ 月額プラン 1,200円 🎉\n'.repeat(400),
  link: { label: '履歴を見る', url: 'https://mimamori.example/targets/t1/history' },
  images,
});
const send = (to: string, deliveryId: string, message = update()) =>
  adapter.send({ platform: 'line', credentials: { to } }, message, product.settings, { deliveryId });
const pushedTo = async (to: string) =>
  (await product.store.list('line')).filter((record) => record.chat === to);
const setLimit = (mode: string) => product.act({ action: 'limit', mode });

describe('LINE through its stand-in', () => {
  it('links the user who befriends the account and sends the code, and tells them so', async () => {
    product.linkedCodes.add('K7Q2M9');
    const linking = adapter.linking;
    if (linking.kind !== 'code') throw new Error('LINE links by code');
    const friendPage = await (await fetch(linking.startUrl('K7Q2M9', product.settings))).text();
    expect(friendPage).toContain('<button type="submit">Add friend</button>');
    const follow = await product.act({ action: 'follow' });
    expect(follow.status).toBe(303);
    expect(product.inbound.at(-1)).toMatchObject({ kind: 'accepted', events: [] });

    await product.act({ action: 'message', text: 'K7Q2M9' });
    expect(product.inbound.at(-1)).toMatchObject({
      kind: 'accepted',
      events: [{ kind: 'link', code: 'K7Q2M9', credentials: { to: you } }],
    });
    await product.act({ action: 'message', text: 'ZZZZZZ' });
    const replies = (await pushedTo(you)).map((record) => JSON.stringify(record.body));
    expect(replies[0]).toContain('That code is unknown or has expired');
    expect(replies[1]).toContain('Linked to Mimamori');
    const page = await (await fetch(`${product.base}/dev/line`)).text();
    expect(page).toContain('a friend of the official account');
    expect(page).toContain('the product answered 200');
  });

  it('pushes a long Japanese update within the limits, title and link kept, pictures by URL', async () => {
    const outcome = await send(
      you,
      'delivery-long',
      update([
        image('before', 'https://mimamori.example/i/before-token?jpeg=1'),
        image('after', 'https://mimamori.example/i/after-token?jpeg=1'),
        image('after', null),
      ]),
    );
    expect(outcome).toEqual({ kind: 'sent' });
    const [pushed] = await pushedTo(you);
    const messages = (pushed?.body as { messages?: Record<string, string>[] } | undefined)?.messages ?? [];
    expect(messages.map((message) => message.type)).toEqual(['text', 'image', 'image']);
    const text = messages[0]?.text ?? '';
    expect(text.length).toBeLessThanOrEqual(LINE_LIMITS.textLength);
    expect(text.startsWith('料金ページが更新されました\nサイト: 見守り商店\nエリア: 料金表')).toBe(true);
    expect(text.endsWith('…\n\n履歴を見る\nhttps://mimamori.example/targets/t1/history')).toBe(true);
    expect(messages[2]).toEqual({
      type: 'image',
      originalContentUrl: 'https://mimamori.example/i/after-token?jpeg=1',
      previewImageUrl: 'https://mimamori.example/i/after-token?preview=1',
    });
    const page = await fetch(`${product.base}/dev/line`);
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self' https://mimamori.example");
    expect(await page.text()).toContain('<img src="https://mimamori.example/i/before-token?jpeg=1"');
  });

  it('sends a retried delivery once: the same retry key is answered 409, which is a success', async () => {
    expect(await send(you, 'delivery-twice')).toEqual({ kind: 'sent' });
    const before = (await pushedTo(you)).length;
    expect(await send(you, 'delivery-twice')).toEqual({ kind: 'sent' });
    expect((await pushedTo(you)).length).toBe(before);
  });

  it('tells a rate limit from a used-up month, and a bad token from a dead link', async () => {
    await setLimit('rate');
    const rate = await send(you, 'delivery-rate');
    expect(rate).toMatchObject({ kind: 'retry', afterMs: 5_000 });
    await setLimit('quota');
    const quota = await send(you, 'delivery-quota');
    expect(quota).toMatchObject({ kind: 'retry', afterMs: 6 * 60 * 60 * 1000 });
    expect(quota.kind === 'retry' && quota.reason).toContain('quota used up');
    await setLimit('forbidden');
    expect(await send(you, 'delivery-forbidden')).toMatchObject({ kind: 'dead' });
    await setLimit('none');

    const wrongToken = await adapter.send(
      { platform: 'line', credentials: { to: you } },
      update(),
      {
        line: {
          ...(product.settings.line ?? { apiBase: '', channelSecret: '', botBasicId: '', addFriendUrl: '' }),
          channelAccessToken: 'revoked',
        },
      },
      { deliveryId: 'delivery-token' },
    );
    expect(wrongToken).toMatchObject({ kind: 'retry', afterMs: 15 * 60 * 1000 });
    expect(await send(you, 'delivery-after-limits')).toEqual({ kind: 'sent' });
  });

  it('plays another LINE user with ?as=, from the add-friend page on', async () => {
    const other = lineUserId('someone else');
    const friendPage = await (await fetch(`${product.base}/dev/line/friend?as=${other}`)).text();
    expect(friendPage).toContain(`name="as" value="${other}"`);
    await product.act({ action: 'follow', as: other });
    await product.act({ action: 'message', text: 'K7Q2M9', as: other });
    expect(product.inbound.at(-1)).toMatchObject({ events: [{ kind: 'link', credentials: { to: other } }] });
  });

  it('reads an unknown user as dead, and a block on the page as the dead event', async () => {
    expect(await send(lineUserId('never-befriended'), 'delivery-unknown')).toEqual({
      kind: 'dead',
      reason: 'line_user_not_found',
    });
    await product.act({ action: 'unfollow' });
    expect(product.inbound.at(-1)).toMatchObject({
      kind: 'accepted',
      events: [{ kind: 'dead', match: { to: you } }],
    });
    const page = await (await fetch(`${product.base}/dev/line`)).text();
    expect(page).toContain('not a friend of the official account');
  });

  it('refuses what LINE refuses: 6 messages, 5,001 characters, a plain-http picture, a form from elsewhere', async () => {
    const push = (body: object) =>
      fetch(`${product.base}/dev/line/v2/bot/message/push`, {
        method: 'POST',
        headers: { authorization: 'Bearer line-channel-token', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const text = (length: number) => ({ type: 'text', text: 'あ'.repeat(length) });
    const group = `C${'0'.repeat(32)}`;
    expect(
      (await push({ to: group, messages: [text(1), text(1), text(1), text(1), text(1), text(1)] })).status,
    ).toBe(400);
    expect((await push({ to: group, messages: [text(5_001)] })).status).toBe(400);
    expect((await push({ to: group, messages: [text(5_000)] })).status).toBe(200);
    const plain = 'http://mimamori.example/i/x';
    expect(
      (
        await push({
          to: group,
          messages: [{ type: 'image', originalContentUrl: plain, previewImageUrl: plain }],
        })
      ).status,
    ).toBe(400);
    expect((await push({ to: 'someone', messages: [text(1)] })).status).toBe(400);
    const forged = await fetch(`${product.base}/dev/line/act`, {
      method: 'POST',
      body: new URLSearchParams({ nonce: 'guessed', action: 'follow' }),
    });
    expect(forged.status).toBe(403);
  });
});
