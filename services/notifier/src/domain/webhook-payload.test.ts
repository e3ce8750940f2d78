import { describe, expect, it } from 'vitest';
import {
  accountWideWebhooks,
  filingWebhookPayload,
  webhookPayload,
  webhooksFor,
  zonedIso,
} from './webhook-payload.ts';

describe('webhook payload', () => {
  const notice = {
    label: '価格ページ',
    url: 'https://shop.example.jp/price',
    lang: 'ja' as const,
    timezone: 'Asia/Tokyo',
    detectedAt: new Date('2026-11-23T14:05:00Z'),
    summary: '1,000円 → 800円（−20%）',
    areas: [
      {
        areaId: 'price',
        label: 'セール価格',
        diffText: '- 1,000円\n+ 800円',
        summary: '1,000円 → 800円（−20%）',
      },
    ],
    areaLabels: { price: 'セール価格' },
    historyUrl: 'https://mimamori.example/target2?id=t1',
    matched: [
      {
        groupIndex: 0,
        conditionIndex: 1,
        areaId: 'price',
        operand: 'new',
        operator: 'keyword',
        value: 'セール',
      },
    ],
  };

  it('tells the site, areas, diff, matched rules, picture links and the time in UTC and the user zone', () => {
    const body = JSON.parse(
      webhookPayload({ updateId: 'u1', targetId: 't1' }, notice, {
        before: 'https://mimamori.example/api/v2/screenshot?image=before',
        after: null,
      }),
    );
    expect(body).toMatchObject({
      type: 'update',
      id: 'u1',
      summary: '1,000円 → 800円（−20%）',
      site: { id: 't1', label: '価格ページ', url: 'https://shop.example.jp/price' },
      areas: [
        { id: 'price', name: 'セール価格', summary: '1,000円 → 800円（−20%）', diff: '- 1,000円\n+ 800円' },
      ],
      matched_rules: [{ group: 1, condition: 2, area_id: 'price', area_name: 'セール価格', value: 'セール' }],
      pictures: { before: 'https://mimamori.example/api/v2/screenshot?image=before', after: null },
      detected_at: '2026-11-23T14:05:00.000Z',
      detected_at_local: '2026-11-23T23:05:00+09:00',
      timezone: 'Asia/Tokyo',
    });
  });

  it('writes zone offsets west of UTC and across a daylight-saving change', () => {
    expect(zonedIso(new Date('2026-07-01T12:00:00Z'), 'America/New_York')).toBe('2026-07-01T08:00:00-04:00');
    expect(zonedIso(new Date('2026-12-01T12:00:00Z'), 'America/New_York')).toBe('2026-12-01T07:00:00-05:00');
    expect(zonedIso(new Date('2026-12-01T12:00:00Z'), 'Asia/Kolkata')).toBe('2026-12-01T17:30:00+05:30');
  });

  it('sends an update to the account-wide webhooks and the site’s own only', () => {
    const hooks = [
      { id: 'a', url: 'https://a.example/', targetId: '', sealedSecret: 's' },
      { id: 'b', url: 'https://b.example/', targetId: 't1', sealedSecret: 's' },
      { id: 'c', url: 'https://c.example/', targetId: 't2', sealedSecret: 's' },
    ];
    expect(webhooksFor(hooks, 't1').map((hook) => hook.id)).toEqual(['a', 'b']);
  });

  it('sends a filing notice to the account-wide webhooks only', () => {
    const hooks = [
      { id: 'a', url: 'https://a.example/', targetId: '', sealedSecret: 's' },
      { id: 'b', url: 'https://b.example/', targetId: 't1', sealedSecret: 's' },
    ];
    expect(accountWideWebhooks(hooks).map((hook) => hook.id)).toEqual(['a']);
  });

  it('tells a filing in the user’s zone and gives no link that is not http(s)', () => {
    const body = JSON.parse(
      filingWebhookPayload(
        'filing:sec:0000320193-26-000001:u1',
        { id: 'f1', label: 'Apple' },
        { key: '0000320193-26-000001' },
        {
          lang: 'en',
          timezone: 'America/New_York',
          followLabel: 'Apple',
          companyName: 'Apple Inc.',
          companyCode: '0000320193',
          source: 'sec',
          title: '8-K',
          documentUrl: 'javascript:alert(1)',
          publishedAt: new Date('2026-12-01T21:30:00Z'),
        },
      ),
    );
    expect(body).toEqual({
      type: 'filing',
      id: 'filing:sec:0000320193-26-000001:u1',
      follow: { id: 'f1', label: 'Apple' },
      filing: {
        source: 'sec',
        key: '0000320193-26-000001',
        company_name: 'Apple Inc.',
        company_code: '0000320193',
        title: '8-K',
        document_url: null,
        published_at: '2026-12-01T21:30:00.000Z',
        published_at_local: '2026-12-01T16:30:00-05:00',
      },
      timezone: 'America/New_York',
      lang: 'en',
    });
  });
});
