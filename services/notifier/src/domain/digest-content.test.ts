import { describe, expect, it } from 'vitest';
import {
  type Digest,
  digestDiscordMessage,
  digestMailContent,
  digestWebhookPayload,
} from './digest-content.ts';

const item = (n: number, summary: string) => ({
  updateId: `u${n}`,
  targetId: 't1',
  label: '価格ページ',
  url: 'https://shop.example.jp/price',
  summary,
  detectedAt: new Date(Date.UTC(2026, 10, 20, 12 + n)),
  historyUrl: 'https://mimamori.example/target2?id=t1',
});

const digest = (
  lang: 'ja' | 'en',
  items = [item(1, '¥1,200 → ¥980（−18%）'), item(2, '在庫あり → 売り切れ')],
): Digest => ({
  lang,
  timezone: 'Asia/Tokyo',
  from: new Date(Date.UTC(2026, 10, 20, 11)),
  until: new Date(Date.UTC(2026, 10, 23, 23)),
  items,
});

describe('the quiet hours digest (docs/product.md#quiet-hours)', () => {
  it('lists every held update, oldest first, with its one line and history, in Japanese', () => {
    const mail = digestMailContent(digest('ja'));
    expect(mail.subject).toBe('【Mimamori】お休み中の更新 2 件');
    expect(mail.text).toContain(
      '2026年11月20日 20:00（日本時間）から2026年11月24日 08:00（日本時間）までのお休み中',
    );
    expect(mail.text).toContain('■ 2026年11月20日 22:00（日本時間） 価格ページ: ¥1,200 → ¥980（−18%）');
    expect(mail.text.indexOf('¥1,200')).toBeLessThan(mail.text.indexOf('在庫あり'));
    expect(mail.html).toContain('在庫あり → 売り切れ');
  });

  it('says it in English, escaped in HTML', () => {
    const mail = digestMailContent(digest('en', [{ ...item(1, '“<b>” → “x”'), label: 'A & B' }]));
    expect(mail.subject).toBe('Mimamori: 1 update from your quiet hours');
    expect(mail.html).toContain('A &amp; B');
    expect(mail.html).not.toContain('<b>”');
  });

  it('keeps a long digest within one Discord embed, saying how many more', () => {
    const many = Array.from({ length: 200 }, (_, n) => item(n, `line ${n} ${'x'.repeat(40)}`));
    const embed = digestDiscordMessage(digest('en', many)).payload.embeds[0];
    expect(embed?.description.length).toBeLessThanOrEqual(4096);
    expect(embed?.description).toMatch(/… and \d+ more$/);
  });

  it('is one webhook delivery carrying every update', () => {
    const body = JSON.parse(digestWebhookPayload('digest:x', digest('ja')));
    expect(body).toMatchObject({ type: 'digest', id: 'digest:x', updates: [{ id: 'u1' }, { id: 'u2' }] });
  });
});
