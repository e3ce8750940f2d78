import { describe, expect, it } from 'vitest';
import type { ChatImage, ChatMessage } from '../port.ts';
import { teamsAdapter, teamsOutcome } from './adapter.ts';
import { payloadBytes, TEAMS_PAYLOAD_BYTES, teamsPayload } from './card.ts';
import { checkWorkflowUrl, postingUrl } from './workflow-url.ts';

const WORKFLOW_URL =
  'https://default1234abcd.56.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/0a1b2c3d4e5f/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=AbC-123_xyz';

function image(role: 'before' | 'after', publicUrl: string | null): ChatImage {
  return { role, data: Buffer.from('png'), contentType: 'image/png', filename: `${role}.png`, publicUrl };
}

function message(overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    kind: 'update',
    lang: 'ja',
    title: '料金ページが更新されました',
    fields: [{ label: 'サイト', value: 'Acme' }],
    body: Array.from(
      { length: 2_000 },
      (_, line) => `- 価格表の第${line}行が変わりました：¥1,980 → ¥2,180 "引用" \\`,
    ).join('\n'),
    link: { label: '履歴を見る', url: 'https://mimamori.example/targets/t1/history' },
    images: [image('before', 'https://mimamori.example/i/before-token'), image('after', null)],
    ...overrides,
  };
}

describe('the Teams Workflows URL', () => {
  it('takes a Workflows trigger URL, its default port left out', async () => {
    const adapter = teamsAdapter();
    if (adapter.linking.kind !== 'fields') throw new Error('Teams is linked by fields');
    expect(adapter.linking.fields).toEqual([{ name: 'url', secret: true }]);
    expect(await adapter.linking.validate({ url: ` ${WORKFLOW_URL} ` }, {})).toEqual({
      ok: true,
      credentials: { url: WORKFLOW_URL.replace(':443', '') },
      label: 'Teams Workflows …3d4e5f',
    });
  });

  it.each([
    [
      'https://acme.webhook.office.com/webhookb2/abc@def/IncomingWebhook/123/456',
      'teams_url_connector_retired',
    ],
    ['https://outlook.office.com/webhook/abc', 'teams_url_connector_retired'],
    [
      'https://prod-12.westus.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?sig=x',
      'teams_url_logic_apps_retired',
    ],
    [WORKFLOW_URL.replace('https:', 'http:'), 'teams_url_not_https'],
    [
      WORKFLOW_URL.replace(
        'environment.api.powerplatform.com',
        'environment.api.powerplatform.com.evil.example',
      ),
      'teams_url_not_workflows',
    ],
    [WORKFLOW_URL.replace('default1234abcd.56.', ''), 'teams_url_not_workflows'],
    [WORKFLOW_URL.replace(':443', ':8443'), 'teams_url_not_workflows'],
    [WORKFLOW_URL.replace('/direct/workflows/', '/direct/flows/'), 'teams_url_not_workflows'],
    [WORKFLOW_URL.replace('https://', 'https://user:pw@'), 'teams_url_has_user'],
    [WORKFLOW_URL.replace('&sig=AbC-123_xyz', ''), 'teams_url_no_signature'],
    ['not a url', 'teams_url_invalid'],
  ])('refuses %s', (url, reason) => {
    const checked = checkWorkflowUrl(url);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.reason).toBe(reason);
  });

  it("goes to the stand-in's origin when apiBase is set", () => {
    const checked = checkWorkflowUrl(WORKFLOW_URL);
    if (!checked.ok) throw new Error(checked.reason);
    expect(postingUrl(checked.url, '')).toBe(WORKFLOW_URL.replace(':443', ''));
    expect(postingUrl(checked.url, 'http://127.0.0.1:4000/dev/teams/')).toBe(
      `http://127.0.0.1:4000/dev/teams/powerautomate/automations/direct/workflows/0a1b2c3d4e5f/triggers/manual/paths/invoke${checked.url.search}`,
    );
  });
});

describe('the Teams card', () => {
  it('fits a long Japanese diff in 27 KiB as an Adaptive Card 1.4, pictures by URL only, title and link kept', () => {
    const payload = teamsPayload(message());
    expect(payloadBytes(payload)).toBeLessThanOrEqual(TEAMS_PAYLOAD_BYTES);
    // Cut to the limit, not far below it.
    expect(payloadBytes(payload)).toBeGreaterThan(TEAMS_PAYLOAD_BYTES - 200);
    const card = payload.attachments[0].content as {
      version: string;
      body: Record<string, unknown>[];
      actions: unknown[];
    };
    expect(payload.type).toBe('message');
    expect(card.version).toBe('1.4');
    const runs = card.body
      .flatMap((element) => (element.inlines as { text: string }[] | undefined) ?? [])
      .map((run) => run.text);
    expect(runs[0]).toBe('料金ページが更新されました');
    expect(runs[1]?.startsWith('- 価格表の第0行が変わりました')).toBe(true);
    expect(runs).toContain('…(続きは履歴ページで)');
    expect(runs).toContain('変更前');
    expect(runs).not.toContain('変更後');
    expect(card.body.filter((element) => element.type === 'Image')).toEqual([
      { type: 'Image', url: 'https://mimamori.example/i/before-token', altText: '変更前', size: 'Stretch' },
    ]);
    expect(card.actions).toEqual([
      { type: 'Action.OpenUrl', title: '履歴を見る', url: 'https://mimamori.example/targets/t1/history' },
    ]);
  });

  it('sends a short diff whole without the note', () => {
    const payload = teamsPayload(message({ body: '- 旧\n+ 新', lang: 'en', images: [] }));
    const card = payload.attachments[0].content as { body: { inlines?: { text: string }[] }[] };
    const runs = card.body.flatMap((element) => element.inlines ?? []).map((run) => run.text);
    expect(runs).toEqual(['料金ページが更新されました', '- 旧\n+ 新']);
  });
});

describe("the Teams trigger's answers", () => {
  it.each([
    [202, '', 'sent'],
    [200, '', 'sent'],
    [429, '', 'retry'],
    [500, '', 'retry'],
    [503, '', 'retry'],
    [400, '{"error":{"code":"WorkflowTriggerIsNotEnabled"}}', 'dead'],
    [404, '', 'dead'],
    [410, '', 'dead'],
    [401, '', 'dead'],
    [403, '', 'dead'],
    [302, '', 'dead'],
    [413, '', 'refused'],
  ])('%i %s is %s', (status, body, kind) => {
    expect(teamsOutcome(status, null, body).kind).toBe(kind);
  });

  it("waits Teams' Retry-After and names why a link broke", () => {
    expect(teamsOutcome(429, '7', '')).toEqual({ kind: 'retry', afterMs: 7_000, reason: 'teams 429' });
    expect(teamsOutcome(400, null, '{"error":{"code":"WorkflowTriggerIsNotEnabled"}}')).toEqual({
      kind: 'dead',
      reason: 'teams_workflow_turned_off',
    });
    expect(teamsOutcome(404, null, '')).toEqual({ kind: 'dead', reason: 'teams_workflow_gone' });
    expect(teamsOutcome(403, null, '')).toEqual({ kind: 'dead', reason: 'teams_workflow_refused_403' });
  });
});
