import { describe, expect, it } from 'vitest';
import { failureChatMessage, filingChatMessage, updateChatMessage } from './chat-message.ts';
import type { UpdateNotice } from './update-notice.ts';

const update: Omit<UpdateNotice, 'images'> = {
  label: '価格ページ',
  url: 'https://shop.example.jp/price',
  lang: 'ja',
  timezone: 'Asia/Tokyo',
  detectedAt: new Date('2026-11-23T14:05:00Z'),
  summary: '1,200円 → 980円（-18%）',
  areas: [
    { areaId: 'price', label: 'セール価格', diffText: '- 1,200円\n+ 980円', summary: '1,200円 → 980円' },
  ],
  areaLabels: { price: 'セール価格' },
  historyUrl: 'https://mimamori.example/target2?id=t1',
  matched: [],
};
const picture = {
  role: 'after' as const,
  data: Buffer.from('x'),
  contentType: 'image/jpeg' as const,
  filename: 'after.jpeg',
  publicUrl: null,
};

describe('the chat messages every platform lays out', () => {
  it('leads an update with its one line and the site, keeps each area’s diff, the history and the pictures', () => {
    const message = updateChatMessage({ ...update, images: [] }, [picture]);
    expect(message).toMatchObject({
      kind: 'update',
      lang: 'ja',
      title: '1,200円 → 980円（-18%）｜価格ページ',
      link: { label: '履歴を見る', url: 'https://mimamori.example/target2?id=t1' },
      images: [picture],
    });
    expect(message.fields).toContainEqual({ label: '検知日時', value: '2026年11月23日 23:05（日本時間）' });
    expect(message.body).toBe('セール価格\n1,200円 → 980円\n- 1,200円\n+ 980円');
    const english = updateChatMessage({ ...update, lang: 'en', summary: '', images: [] }, []);
    expect(english.title).toBe('Update on 価格ページ');
  });

  it('says a failure and its recovery as the mail does, without the mail’s lead', () => {
    const base = {
      lang: 'en' as const,
      timezone: 'UTC',
      label: 'Prices',
      url: 'https://shop.example/p',
      historyUrl: '',
    };
    const since = new Date('2026-11-25T01:00:00Z');
    const failing = failureChatMessage({
      ...base,
      failure: { kind: 'element_not_found', areaId: 'price', areaName: 'Price', count: 3, since },
    });
    expect(failing).toMatchObject({
      kind: 'failure',
      title: 'checks of “Prices” are failing',
      link: { url: 'https://shop.example/p' },
    });
    const working = failureChatMessage({
      ...base,
      recovered: { since, at: new Date('2026-11-25T02:00:00Z') },
    });
    expect(working.kind).toBe('recovery');
    expect(working.title).toBe('“Prices” is working again');
  });

  it('names a filing by its title, with the company, the time, the source and the document', () => {
    const message = filingChatMessage({
      lang: 'ja',
      timezone: 'Asia/Tokyo',
      followLabel: 'トヨタ自動車',
      companyName: 'トヨタ自動車',
      companyCode: '7203',
      source: 'tdnet',
      title: '決算短信',
      documentUrl: 'javascript:alert(1)',
      publishedAt: new Date('2026-05-08T06:30:00Z'),
    });
    expect(message.title).toBe('決算短信');
    expect(message.fields).toContainEqual({ label: '企業', value: 'トヨタ自動車 (7203)' });
    expect(message.fields).toContainEqual({ label: '開示元', value: 'TDnet' });
    // Only an http(s) document is linked: the source's text is not trusted to carry a safe one.
    expect(message.link).toBeNull();
  });
});
