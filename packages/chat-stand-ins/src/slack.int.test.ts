import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatDestination, ChatMessage, ChatPlatformSettings, InboundResult } from '@mimamori/chat';
import { slackAdapter } from '@mimamori/chat/slack';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStandInStore } from './memory-store.ts';
import { SLACK_STAND_IN_TEAM, slackStandIn } from './slack.ts';
import type { StandInRecord, StandInStore } from './stand-in.ts';

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const REDIRECT_URI = 'https://mimamori.example/chat/oauth/slack/callback';

let clock = 1_800_000_000_000;
/** Each send a second and a bit after the last: Slack takes one message a second per channel. */
const nextSecond = () => {
  clock += 1_100;
};

let standIn: FastifyInstance;
let product: Server;
let store: StandInStore;
let settings: ChatPlatformSettings;
let base: string;
const adapter = slackAdapter();
/** What the product's /hooks/slack made of each event the stand-in sent. */
const hooks: InboundResult[] = [];

beforeAll(async () => {
  product = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([key, value]) => [key, String(value)]),
    );
    const result = await adapter.inbound?.(
      { headers, rawBody: Buffer.concat(chunks), nowSeconds: Math.floor(clock / 1000) },
      settings,
    );
    if (result) hooks.push(result);
    response.writeHead(result?.kind === 'accepted' ? 200 : 401).end();
  });
  await new Promise<void>((resolve) => product.listen(0, '127.0.0.1', resolve));
  standIn = Fastify();
  store = memoryStandInStore();
  settings = {
    slack: {
      apiBase: '',
      oauthBase: '',
      clientId: '1000.2000',
      clientSecret: 'client-secret',
      signingSecret: 'signing-secret',
    },
  };
  slackStandIn()(standIn, '/dev/slack', {
    store,
    settings,
    productUrl: () => `http://127.0.0.1:${(product.address() as AddressInfo).port}`,
    now: () => clock,
  });
  base = await standIn.listen({ port: 0, host: '127.0.0.1' });
  settings.slack = {
    ...(settings.slack as NonNullable<ChatPlatformSettings['slack']>),
    apiBase: `${base}/dev/slack/api`,
    oauthBase: `${base}/dev/slack`,
  };
});

afterAll(async () => {
  await standIn.close();
  await new Promise((resolve) => product.close(resolve));
});

function message(overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    kind: 'update',
    lang: 'ja',
    title: '料金ページが更新されました',
    fields: [
      { label: 'サイト', value: 'Acme' },
      { label: 'エリア', value: '料金表' },
    ],
    body: Array.from(
      { length: 600 },
      (_, line) => `+ 新しい価格（第${line}行）：¥2,180 <税込> & 送料無料`,
    ).join('\n'),
    link: { label: '履歴を見る', url: 'https://mimamori.example/targets/t1/history' },
    images: [],
    ...overrides,
  };
}

/** Goes through the consent page as the person would: picks a channel and allows. */
async function link(channel: string, state: string, scope?: string): Promise<ChatDestination> {
  if (adapter.linking.kind !== 'oauth') throw new Error('Slack is linked by OAuth');
  const authorize = adapter.linking.authorizeUrl(state, REDIRECT_URI, settings);
  const consent = await fetch(authorize);
  const page = await consent.text();
  expect(page).toContain('chat:write,files:write,channels:read,incoming-webhook');
  const granted = scope ?? /name="scope" value="([^"]*)"/.exec(page)?.[1] ?? '';
  const approved = await fetch(new URL('/dev/slack/oauth/v2/authorize', base), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      redirect_uri: REDIRECT_URI,
      state,
      channel,
      decision: 'allow',
      scope: granted,
    }),
    redirect: 'manual',
  });
  expect(approved.status).toBe(302);
  const back = new URL(approved.headers.get('location') ?? '');
  expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
  expect(back.searchParams.get('state')).toBe(state);
  const exchanged = await adapter.linking.exchange(
    back.searchParams.get('code') ?? '',
    REDIRECT_URI,
    settings,
  );
  if (!exchanged.ok) throw new Error(exchanged.reason);
  return { platform: 'slack', credentials: exchanged.credentials };
}

async function lastRecord(): Promise<StandInRecord> {
  const [record] = await store.list('slack');
  if (!record) throw new Error('nothing posted');
  return record;
}

describe('the Slack adapter against the Slack stand-in', () => {
  it('links a channel through the consent page, the state kept, each code used once', async () => {
    if (adapter.linking.kind !== 'oauth') throw new Error('Slack is linked by OAuth');
    const destination = await link('C0ALERTS', 'state-abc');
    expect(destination.credentials).toMatchObject({
      botToken: expect.stringMatching(/^xoxb-/),
      channelId: 'C0ALERTS',
      channelName: 'alerts',
      teamId: SLACK_STAND_IN_TEAM.id,
      teamName: SLACK_STAND_IN_TEAM.name,
    });
    const denied = await fetch(new URL('/dev/slack/oauth/v2/authorize', base), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        redirect_uri: REDIRECT_URI,
        state: 's2',
        channel: 'C0ALERTS',
        decision: 'cancel',
      }),
      redirect: 'manual',
    });
    expect(new URL(denied.headers.get('location') ?? '').searchParams.get('error')).toBe('access_denied');
    expect(await adapter.linking.exchange('standin-code-made-up', REDIRECT_URI, settings)).toEqual({
      ok: false,
      reason: 'slack_invalid_code',
    });
    const wrongSecret = {
      slack: { ...(settings.slack as NonNullable<ChatPlatformSettings['slack']>), clientSecret: 'x' },
    };
    expect(await adapter.linking.exchange('any', REDIRECT_URI, wrongSecret)).toMatchObject({ ok: false });
  });

  it("posts a long Japanese diff within Slack's limits, then an update with its pictures uploaded", async () => {
    const destination = await link('C0GENERAL', 'state-general');
    nextSecond();
    expect(await adapter.send(destination, message(), settings, { deliveryId: 'd1' })).toEqual({
      kind: 'sent',
    });
    const posted = await lastRecord();
    expect(posted.chat).toBe('C0GENERAL');
    const body = posted.body as {
      method: string;
      text: string;
      blocks: { text?: { text: string }; elements?: { text: string }[] }[];
    };
    expect(body.method).toBe('chat.postMessage');
    expect(body.text.startsWith('料金ページが更新されました')).toBe(true);
    expect(body.blocks.at(-1)?.text?.text).toBe('<https://mimamori.example/targets/t1/history|履歴を見る>');
    expect(body.blocks.some((block) => block.elements?.[0]?.text === '…(続きは履歴ページで)')).toBe(true);

    nextSecond();
    const images = [
      {
        role: 'before' as const,
        data: PNG,
        contentType: 'image/png' as const,
        filename: 'before.png',
        publicUrl: null,
      },
      {
        role: 'after' as const,
        data: PNG,
        contentType: 'image/png' as const,
        filename: 'after.png',
        publicUrl: null,
      },
    ];
    expect(await adapter.send(destination, message({ images }), settings, { deliveryId: 'd2' })).toEqual({
      kind: 'sent',
    });
    const shared = await lastRecord();
    expect(shared.body).toMatchObject({
      method: 'files.completeUploadExternal',
      titles: ['変更前', '変更後'],
    });
    expect((shared.body as { blocks: unknown[] }).blocks.length).toBe(body.blocks.length);
    expect(shared.files.map((file) => [file.filename, file.contentType, file.data.equals(PNG)])).toEqual([
      ['before.png', 'image/png', true],
      ['after.png', 'image/png', true],
    ]);

    // The page shows the channel's messages with their pictures.
    const page = await (await fetch(new URL('/dev/slack', base))).text();
    expect(page).toContain('料金ページが更新されました');
    expect(page).toContain(`/dev/slack/files/${shared.id}/1`);
    const picture = await fetch(new URL(`/dev/slack/files/${shared.id}/1`, base));
    expect(Buffer.from(await picture.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it("refuses blocks past Slack's limits and what is not a picture", async () => {
    const destination = await link('C0GENERAL', 'state-limits');
    const post = async (blocks: unknown[]) => {
      nextSecond();
      const response = await fetch(new URL('/dev/slack/api/chat.postMessage', base), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${destination.credentials.botToken}`,
        },
        body: JSON.stringify({ channel: 'C0GENERAL', text: 'x', blocks }),
      });
      return (await response.json()) as { ok: boolean; error?: string };
    };
    const section = (text: string) => ({ type: 'section', text: { type: 'plain_text', text } });
    expect(await post(Array.from({ length: 51 }, () => section('a')))).toMatchObject({
      error: 'invalid_blocks',
    });
    expect(await post([section('あ'.repeat(3_001))])).toMatchObject({ error: 'invalid_blocks' });
    expect(await post(Array.from({ length: 5 }, () => section('あ'.repeat(2_500))))).toMatchObject({
      error: 'msg_blocks_too_long',
    });
    expect(await post([section('あ'.repeat(3_000))])).toMatchObject({ ok: true });

    nextSecond();
    const notAPicture = {
      role: 'after' as const,
      data: Buffer.from('<html>'),
      contentType: 'image/png' as const,
      filename: 'a.png',
      publicUrl: null,
    };
    expect(
      await adapter.send(destination, message({ images: [notAPicture] }), settings, { deliveryId: 'd3' }),
    ).toEqual({
      kind: 'refused',
      reason: 'slack upload_failed_415',
    });
  });

  it("answers a second message within the second with 429, and the adapter waits Slack's Retry-After", async () => {
    const destination = await link('C0GENERAL', 'state-rate');
    nextSecond();
    expect(await adapter.send(destination, message(), settings, { deliveryId: 'd4' })).toEqual({
      kind: 'sent',
    });
    clock += 200;
    expect(await adapter.send(destination, message(), settings, { deliveryId: 'd5' })).toEqual({
      kind: 'retry',
      afterMs: 1_000,
      reason: 'Slack rate limit',
    });
  });

  it('tells a dead channel: unknown, archived, the app removed, a forged token', async () => {
    const destination = await link('C0RANDOM', 'state-dead');
    const send = async (credentials: Record<string, string>) => {
      nextSecond();
      return adapter.send({ platform: 'slack', credentials }, message({ lang: 'en' }), settings, {
        deliveryId: 'd',
      });
    };
    expect(await send({ ...destination.credentials, channelId: 'C0NOWHERE' })).toMatchObject({
      kind: 'dead',
      reason: 'slack_channel_not_found',
    });
    expect(await send({ ...destination.credentials, botToken: 'xoxb-forged' })).toMatchObject({
      kind: 'dead',
      reason: 'slack_invalid_auth',
    });

    await fetch(new URL('/dev/slack/channels/C0RANDOM/archive', base), {
      method: 'POST',
      redirect: 'manual',
    });
    expect(await send(destination.credentials)).toMatchObject({
      kind: 'dead',
      reason: 'slack_is_archived',
    });
    await fetch(new URL('/dev/slack/channels/C0RANDOM/archive', base), {
      method: 'POST',
      redirect: 'manual',
    });
    expect(await send(destination.credentials)).toEqual({ kind: 'sent' });

    await fetch(new URL('/dev/slack/channels/C0RANDOM/remove-app', base), {
      method: 'POST',
      redirect: 'manual',
    });
    expect(await send(destination.credentials)).toMatchObject({
      kind: 'dead',
      reason: 'slack_not_in_channel',
    });
  });

  it('tells a token without the upload scope as dead (missing_scope)', async () => {
    const destination = await link('C0ALERTS', 'state-scope', 'chat:write,channels:read,incoming-webhook');
    nextSecond();
    expect(await adapter.send(destination, message({ images: [] }), settings, { deliveryId: 's1' })).toEqual({
      kind: 'sent',
    });
    nextSecond();
    const picture = {
      role: 'after' as const,
      data: PNG,
      contentType: 'image/png' as const,
      filename: 'a.png',
      publicUrl: null,
    };
    expect(
      await adapter.send(destination, message({ images: [picture] }), settings, { deliveryId: 's2' }),
    ).toMatchObject({
      kind: 'dead',
      reason: 'slack_missing_scope',
    });
  });

  it('uninstalling the app sends signed events the product verifies, and the token is revoked after', async () => {
    const destination = await link('C0GENERAL', 'state-uninstall');
    const uninstall = await fetch(new URL('/dev/slack/uninstall', base), {
      method: 'POST',
      redirect: 'manual',
    });
    expect(uninstall.status).toBe(302);
    expect(hooks).toEqual([
      {
        kind: 'accepted',
        events: [
          {
            kind: 'dead',
            match: { teamId: SLACK_STAND_IN_TEAM.id },
            reason: 'slack_app_uninstalled',
          },
        ],
      },
      {
        kind: 'accepted',
        events: [
          {
            kind: 'dead',
            match: { teamId: SLACK_STAND_IN_TEAM.id },
            reason: 'slack_tokens_revoked',
          },
        ],
      },
    ]);
    nextSecond();
    expect(await adapter.send(destination, message(), settings, { deliveryId: 'd6' })).toMatchObject({
      kind: 'dead',
      reason: 'slack_token_revoked',
    });
    expect(await (await fetch(new URL('/dev/slack', base))).text()).toContain(
      'app_uninstalled: the product answered 200',
    );
  });
});
