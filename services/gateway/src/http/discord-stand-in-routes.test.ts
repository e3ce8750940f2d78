import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileStandInStore, memoryStandInStore } from '@mimamori/chat-stand-ins';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discordStandInRoutes, listensOnLoopbackOnly } from './discord-stand-in-routes.ts';

let app: FastifyInstance;

beforeEach(async () => {
  app = Fastify();
  discordStandInRoutes(app, memoryStandInStore());
  await app.ready();
});

afterEach(async () => {
  await app.close();
});

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/** The multipart body the notifier sends (payload_json and files[n]), as the wire carries it. */
async function executeWebhookBody(payload: unknown, files: { name: string; data: Buffer; type: string }[]) {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(payload));
  files.forEach((file, index) => {
    form.append(`files[${index}]`, new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  });
  const request = new Request('http://stand-in/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '' },
  };
}

const update = {
  username: 'Mimamori',
  embeds: [
    {
      title: '価格ページ <script>alert(1)</script>',
      url: 'https://shop.example.jp/price',
      description: '**セール価格**\n```diff\n- 1,200円\n+ 980円\n```',
      color: 0x0f766e,
      fields: [{ name: '検知日時', value: '2026-11-23 23:05（日本時間）' }],
      image: { url: 'attachment://after.webp' },
      thumbnail: { url: 'attachment://before.webp' },
    },
  ],
};

describe('the local Discord stand-in', () => {
  it('keeps what the notifier posts and shows it as a channel would, pictures included', async () => {
    const body = await executeWebhookBody(update, [
      { name: 'before.webp', data: Buffer.from('before-bytes'), type: 'image/webp' },
      { name: 'after.webp', data: PNG, type: 'image/png' },
    ]);
    const posted = await app.inject({
      method: 'POST',
      url: '/dev/discord/api/webhooks/123456/tok-en?wait=true',
      ...body,
    });
    expect(posted.statusCode).toBe(200);
    expect(posted.json()).toMatchObject({ webhook_id: '123456' });

    const page = await app.inject({ method: 'GET', url: '/dev/discord' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('価格ページ &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain('- 1,200円\n+ 980円');
    expect(page.body).toContain('2026-11-23 23:05（日本時間）');
    expect(page.body).toContain('border-left:4px solid #0f766e');
    expect(page.body).toContain('webhook 123456');
    expect(page.body).not.toContain('tok-en');
    const image = /<img src="([^"]+)" alt="image"/.exec(page.body)?.[1] ?? '';
    const thumbnail = /<img src="([^"]+)" alt="thumbnail"/.exec(page.body)?.[1] ?? '';
    const after = await app.inject({ method: 'GET', url: image });
    expect([after.statusCode, after.headers['content-type']]).toEqual([200, 'image/png']);
    expect(after.rawPayload.equals(PNG)).toBe(true);
    expect((await app.inject({ method: 'GET', url: thumbnail })).body).toBe('before-bytes');
  });

  it('keeps the JSON test message the account service posts when a webhook is linked', async () => {
    const posted = await app.inject({
      method: 'POST',
      url: '/dev/discord/api/webhooks/42/local?wait=true',
      payload: { content: 'Mimamori is linked. Changes will be announced here.', username: 'Mimamori' },
    });
    expect(posted.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/dev/discord' })).body).toContain(
      'Mimamori is linked. Changes will be announced here.',
    );
  });

  it('refuses an empty message as Discord does', async () => {
    const posted = await app.inject({
      method: 'POST',
      url: '/dev/discord/api/webhooks/42/local',
      payload: { username: 'Mimamori' },
    });
    expect(posted.statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/dev/discord' })).body).toContain(
      'No Discord message yet',
    );
  });

  it('answers only loopback visitors', async () => {
    const outside = { remoteAddress: '192.0.2.10' };
    expect((await app.inject({ method: 'GET', url: '/dev/discord', ...outside })).statusCode).toBe(404);
    const posted = await app.inject({
      method: 'POST',
      url: '/dev/discord/api/webhooks/42/local',
      payload: { content: 'from elsewhere' },
      ...outside,
    });
    expect(posted.statusCode).toBe(404);
    const page = await app.inject({ method: 'GET', url: '/dev/discord', remoteAddress: '::1' });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('from elsewhere');
  });
});

describe('the local Discord stand-in with the data folder', () => {
  it('shows the same messages and pictures after the product restarts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'discord-stand-in-'));
    const start = async () => {
      const product = Fastify();
      discordStandInRoutes(product, fileStandInStore(dir));
      await product.ready();
      return product;
    };
    try {
      const first = await start();
      const body = await executeWebhookBody(update, [{ name: 'after.webp', data: PNG, type: 'image/png' }]);
      const posted = await first.inject({
        method: 'POST',
        url: '/dev/discord/api/webhooks/77/tok?wait=true',
        ...body,
      });
      expect(posted.statusCode).toBe(200);
      await first.close();

      const second = await start();
      try {
        const page = await second.inject({ method: 'GET', url: '/dev/discord' });
        expect(page.body).toContain('価格ページ &lt;script&gt;');
        expect(page.body).toContain('webhook 77');
        const image = /<img src="([^"]+)" alt="image"/.exec(page.body)?.[1] ?? '';
        const picture = await second.inject({ method: 'GET', url: image });
        expect([picture.statusCode, picture.rawPayload.equals(PNG)]).toEqual([200, true]);
        // Numbering goes on from the kept messages, so a link to an old picture still names it.
        const next = await second.inject({
          method: 'POST',
          url: '/dev/discord/api/webhooks/77/tok?wait=true',
          payload: { content: 'after the restart' },
        });
        expect(next.json()).toMatchObject({ id: '2' });
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('listening on loopback only', () => {
  it('holds for loopback addresses and names, not for wildcard or public ones', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost'])
      expect(listensOnLoopbackOnly(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.5', 'example.jp', ''])
      expect(listensOnLoopbackOnly(host)).toBe(false);
  });
});
