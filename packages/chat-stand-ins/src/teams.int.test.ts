import type { ChatDestination, ChatMessage, ChatPlatformSettings } from '@mimamori/chat';
import { teamsAdapter } from '@mimamori/chat/teams';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStandInStore } from './memory-store.ts';
import type { StandInStore } from './stand-in.ts';
import { teamsStandIn } from './teams.ts';

const flowUrl = (flow: string) =>
  `https://default0000.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/${flow}/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=local-sig`;

let clock = 1_800_000_000_000;
let standIn: FastifyInstance;
let store: StandInStore;
let base: string;
let settings: ChatPlatformSettings;
const adapter = teamsAdapter();

beforeAll(async () => {
  standIn = Fastify();
  store = memoryStandInStore();
  teamsStandIn()(standIn, '/dev/teams', {
    store,
    settings: {},
    productUrl: () => 'http://127.0.0.1:9',
    now: () => clock,
  });
  base = await standIn.listen({ port: 0, host: '127.0.0.1' });
  settings = { teams: { apiBase: `${base}/dev/teams` } };
});

afterAll(async () => {
  await standIn.close();
});

function message(overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    kind: 'update',
    lang: 'ja',
    title: '料金ページが更新されました',
    fields: [{ label: 'サイト', value: 'Acme' }],
    body: Array.from({ length: 1_500 }, (_, line) => `- 価格表の第${line}行：¥1,980 → ¥2,180`).join('\n'),
    link: { label: '履歴を見る', url: 'https://mimamori.example/targets/t1/history' },
    images: [
      {
        role: 'before',
        data: Buffer.from('png'),
        contentType: 'image/png',
        filename: 'before.png',
        publicUrl: 'https://mimamori.example/i/b',
      },
      {
        role: 'after',
        data: Buffer.from('png'),
        contentType: 'image/png',
        filename: 'after.png',
        publicUrl: 'https://mimamori.example/i/a',
      },
    ],
    ...overrides,
  };
}

async function linked(flow: string): Promise<ChatDestination> {
  if (adapter.linking.kind !== 'fields') throw new Error('Teams is linked by fields');
  const validated = await adapter.linking.validate({ url: flowUrl(flow) }, settings);
  if (!validated.ok) throw new Error(validated.reason);
  return { platform: 'teams', credentials: validated.credentials };
}

describe('the Teams adapter against the Teams stand-in', () => {
  it('posts a long Japanese diff as a card under 28 KB with the pictures by their URLs', async () => {
    const destination = await linked('flow-update');
    clock += 1_000;
    expect(await adapter.send(destination, message(), settings, { deliveryId: 'd1' })).toEqual({
      kind: 'sent',
    });
    const [record] = await store.list('teams');
    expect(record?.chat).toBe('flow-update');
    expect(Buffer.byteLength(JSON.stringify(record?.body))).toBeLessThanOrEqual(28 * 1024);
    if (!record) throw new Error('no card');
    const card = (record.body as { attachments: { content: { body: { type: string; url?: string }[] } }[] })
      .attachments[0]?.content;
    expect(card?.body.filter((element) => element.type === 'Image').map((element) => element.url)).toEqual([
      'https://mimamori.example/i/b',
      'https://mimamori.example/i/a',
    ]);
    const page = await (await fetch(new URL('/dev/teams', base))).text();
    expect(page).toContain('料金ページが更新されました');
    expect(page).toContain('<img src="https://mimamori.example/i/a" alt="変更後">');
    expect(page).toContain('<a href="https://mimamori.example/targets/t1/history">履歴を見る</a>');
  });

  it('refuses a card Teams would not show: too large, a data URI picture, not an AdaptiveCard', async () => {
    const post = async (body: unknown) => {
      clock += 1_000;
      const response = await fetch(`${base}/dev/teams${new URL(flowUrl('flow-raw')).pathname}?sig=x`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, text: await response.text() };
    };
    const card = (body: unknown[], type = 'AdaptiveCard') => ({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: { type, version: '1.4', body },
        },
      ],
    });
    const text = (value: string) => ({ type: 'TextBlock', text: value });
    expect(await post(card([text('あ'.repeat(10_000))]))).toMatchObject({ status: 413 });
    expect(await post(card([{ type: 'Image', url: 'data:image/png;base64,AAAA' }]))).toMatchObject({
      status: 400,
      text: expect.stringContaining('no data URI'),
    });
    expect(await post(card([{ type: 'Image', url: 'http://example.com/a.png' }]))).toMatchObject({
      status: 400,
    });
    // The single-process product's own picture links on loopback (no https there) are shown.
    expect(await post(card([{ type: 'Image', url: 'http://127.0.0.1:8080/i/token?jpeg=1' }]))).toMatchObject({
      status: 202,
    });
    expect(await post(card([text('x')], 'Card'))).toMatchObject({
      status: 400,
      text: expect.stringContaining("'AdaptiveCard'"),
    });
    expect(await post(card([text('x')]))).toMatchObject({ status: 202 });
  });

  it("answers past 4 requests a second with 429, and the adapter waits Teams' Retry-After", async () => {
    const destination = await linked('flow-rate');
    clock += 1_000;
    const small = message({ body: '+ 新', images: [] });
    for (let request = 0; request < 4; request += 1) {
      expect(await adapter.send(destination, small, settings, { deliveryId: `r${request}` })).toEqual({
        kind: 'sent',
      });
    }
    expect(await adapter.send(destination, small, settings, { deliveryId: 'r4' })).toEqual({
      kind: 'retry',
      afterMs: 1_000,
      reason: 'teams 429',
    });
    clock += 1_000;
    expect(await adapter.send(destination, small, settings, { deliveryId: 'r5' })).toEqual({ kind: 'sent' });
  });

  it('tells a flow turned off on the page, and a trigger that is not there, as dead', async () => {
    const destination = await linked('flow-off');
    clock += 1_000;
    expect(await adapter.send(destination, message({ lang: 'en' }), settings, { deliveryId: 'o1' })).toEqual({
      kind: 'sent',
    });
    const toggled = await fetch(new URL('/dev/teams/flows/flow-off/toggle', base), {
      method: 'POST',
      redirect: 'manual',
    });
    expect(toggled.status).toBe(302);
    expect(await (await fetch(new URL('/dev/teams', base))).text()).toContain('Turn the flow on');
    clock += 1_000;
    expect(
      await adapter.send(destination, message({ lang: 'en' }), settings, { deliveryId: 'o2' }),
    ).toMatchObject({
      kind: 'dead',
      reason: 'teams_workflow_turned_off',
    });
    const elsewhere = { teams: { apiBase: `${base}/nowhere` } };
    expect(
      await adapter.send(destination, message({ lang: 'en' }), elsewhere, { deliveryId: 'o3' }),
    ).toMatchObject({
      kind: 'dead',
      reason: 'teams_workflow_gone',
    });
    // A stored URL that is not a Workflows URL is never posted to.
    expect(
      await adapter.send(
        { platform: 'teams', credentials: { url: `${base}/dev/teams` } },
        message(),
        settings,
        { deliveryId: 'o4' },
      ),
    ).toMatchObject({ kind: 'dead' });
  });
});
