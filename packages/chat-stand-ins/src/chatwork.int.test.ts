import { createHash } from 'node:crypto';
import { CHATWORK_BODY_LIMIT, type ChatMessage, chatworkAdapter } from '@mimamori/chat';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatworkStandIn } from './chatwork.ts';
import { memoryStandInStore } from './memory-store.ts';

// The adapter against the stand-in, which enforces Chatwork's limits: what the product sends
// must be what Chatwork would take.
const TOKEN = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const store = memoryStandInStore();
let app: FastifyInstance;
let settings: { chatwork: { apiBase: string } };
const adapter = chatworkAdapter({ sleep: async () => undefined });

beforeAll(async () => {
  app = Fastify();
  // Three posts per room per second: one message with two pictures fills a room's window.
  chatworkStandIn({ room: { count: 3, windowMs: 1_000 } })(app, '/dev/chatwork', {
    store,
    productUrl: () => '',
    settings: {},
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  settings = { chatwork: { apiBase: `${address}/dev/chatwork` } };
});
afterAll(() => app.close());

const picture = (role: 'before' | 'after', bytes: number) => ({
  role,
  data: Buffer.alloc(bytes, role === 'before' ? 1 : 2),
  contentType: 'image/png' as const,
  filename: `${role}.png`,
  publicUrl: null,
});

const message = (body: string, images: ChatMessage['images'] = []): ChatMessage => ({
  kind: 'update',
  lang: 'ja',
  title: '在庫ページ が更新されました [/info]',
  fields: [
    { label: 'サイト', value: 'https://shop.example/item' },
    { label: 'エリア', value: '在庫' },
  ],
  body,
  link: { label: '履歴', url: 'https://mimamori.example/target2?id=t1' },
  images,
});

const destination = (roomId: string) => ({
  platform: 'chatwork' as const,
  credentials: { apiToken: TOKEN, roomId },
});

describe('Chatwork adapter against the stand-in', () => {
  it('links a token and a room (or a pasted room address), and names the field it refuses', async () => {
    if (adapter.linking.kind !== 'fields') throw new Error('Chatwork links by fields');
    expect(await adapter.linking.validate({ apiToken: TOKEN, roomId: '1001' }, settings)).toEqual({
      ok: true,
      credentials: { apiToken: TOKEN, roomId: '1001' },
      label: 'Room 1001',
    });
    const pasted = await adapter.linking.validate(
      { apiToken: TOKEN, roomId: 'https://www.chatwork.com/#!rid1002' },
      settings,
    );
    expect(pasted).toMatchObject({ ok: true, credentials: { roomId: '1002' } });
    expect(await adapter.linking.validate({ apiToken: 'short', roomId: '1' }, settings)).toMatchObject({
      ok: false,
      field: 'apiToken',
    });
    expect(await adapter.linking.validate({ apiToken: TOKEN, roomId: 'lobby' }, settings)).toMatchObject({
      ok: false,
      field: 'roomId',
    });
  });

  it('keeps a long change within the body limit, with its title and link, and uploads both pictures', async () => {
    // Astral characters and a would-be closing tag in the page's own text.
    const diff = `${'＋在庫あり 🍣 [/info] '.repeat(12_000)}end`;
    const outcome = await adapter.send(
      destination('2001'),
      message(diff, [picture('before', 1_000), picture('after', 2_000)]),
      settings,
      { deliveryId: 'd1' },
    );
    expect(outcome).toEqual({ kind: 'sent' });
    const inRoom = (await store.list('chatwork')).filter((record) => record.chat === '2001').reverse();
    expect(inRoom).toHaveLength(3);
    const body = (inRoom[0]?.body as { body?: string } | undefined)?.body ?? '';
    expect(Array.from(body).length).toBeLessThanOrEqual(CHATWORK_BODY_LIMIT);
    expect(body.startsWith('[info][title]在庫ページ が更新されました [\u200b/info][/title]')).toBe(true);
    expect(body).toContain('履歴: https://mimamori.example/target2?id=t1[/info]');
    expect(body.match(/\[\/info\]/g)).toHaveLength(1);
    expect(inRoom.slice(1).map((record) => record.files[0]?.filename)).toEqual(['before.png', 'after.png']);
    expect(inRoom[2]?.files[0]?.data.length).toBe(2_000);
  });

  it('leaves out a picture over 5 MB and still sends the message', async () => {
    const outcome = await adapter.send(
      destination('3001'),
      message('changed', [picture('before', 5 * 1024 * 1024 + 1), picture('after', 10)]),
      settings,
      { deliveryId: 'd2' },
    );
    expect(outcome).toEqual({ kind: 'sent' });
    const inRoom = (await store.list('chatwork')).filter((record) => record.chat === '3001');
    expect(inRoom.flatMap((record) => record.files.map((file) => file.filename))).toEqual(['after.png']);
  });

  it("answers a full room's 429 with a retry after the platform's reset", async () => {
    const filled = await adapter.send(
      destination('4001'),
      message('one', [picture('before', 10), picture('after', 10)]),
      settings,
      { deliveryId: 'd3' },
    );
    expect(filled).toEqual({ kind: 'sent' });
    const outcome = await adapter.send(destination('4001'), message('two'), settings, { deliveryId: 'd4' });
    expect(outcome.kind).toBe('retry');
    if (outcome.kind !== 'retry') return;
    expect(outcome.afterMs).toBeGreaterThan(0);
    expect(outcome.afterMs).toBeLessThanOrEqual(2_000);
    expect((await store.list('chatwork')).filter((record) => record.chat === '4001')).toHaveLength(3);
  });

  it('reads a token revoked on the page as a dead link', async () => {
    const hash = createHash('sha256').update(TOKEN).digest('hex');
    const page = await app.inject({ method: 'GET', url: '/dev/chatwork' });
    expect(page.body).toContain(`value="${hash}"`);
    expect(page.body).not.toContain(TOKEN);
    const revoked = await app.inject({
      method: 'POST',
      url: '/dev/chatwork/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${hash}`,
    });
    expect(revoked.statusCode).toBe(303);
    expect(
      await adapter.send(destination('5001'), message('after revoke'), settings, { deliveryId: 'd5' }),
    ).toEqual({
      kind: 'dead',
      reason: 'chatwork_token_revoked',
    });
  });
});
