import { describe, expect, it } from 'vitest';
import { failureDiscordMessage, failureMailContent } from './failure-alert-content.ts';

const base = {
  timezone: 'Asia/Tokyo',
  label: '価格ページ',
  url: 'https://shop.example.jp/price',
  historyUrl: 'https://mimamori.example/target2?id=t1',
};
const since = new Date('2026-11-25T01:00:00Z');

describe('failure alerts in the user’s words (docs/product.md#failure-alerts)', () => {
  it('says what failed, naming the area, how often and since when, in Japanese', () => {
    const mail = failureMailContent({
      ...base,
      lang: 'ja',
      failure: { kind: 'element_not_found', areaId: 'price', areaName: 'セール価格', count: 3, since },
    });
    expect(mail.subject).toBe('【Mimamori】「価格ページ」の確認が失敗しています');
    expect(mail.text).toContain(
      '「価格ページ」の確認が 3 回続けて失敗しました: 監視範囲「セール価格」が見つかりませんでした',
    );
    expect(mail.text).toContain('2026年11月25日 10:00（日本時間）から失敗しています。');
    expect(mail.html).toContain('href="https://mimamori.example/target2?id=t1"');
    // The product's branded layout, with the history behind its teal button.
    expect(mail.html).toMatch(
      /<td style="background:#0f766e[^"]*"><a href="https:\/\/mimamori\.example\/target2\?id=t1"[^>]*>履歴を見る<\/a>/,
    );
    expect(mail.html).toContain('href="https://shop.example.jp/price"');
  });

  it('words each kind, and the working-again message, in English', () => {
    const words = (kind: 'blocked' | 'unreachable' | 'login_failed' | 'timeout') =>
      failureMailContent({
        ...base,
        lang: 'en',
        failure: { kind, areaId: '', areaName: '', count: 4, since },
      }).text;
    expect(words('blocked')).toContain('failed: the site blocked our access.');
    expect(words('unreachable')).toContain('failed: the site could not be reached.');
    expect(words('login_failed')).toContain('failed: signing in failed');
    expect(words('timeout')).toContain('failed: the page took too long to answer');
    const recovered = failureMailContent({
      ...base,
      lang: 'en',
      recovered: { since, at: new Date('2026-11-25T03:00:00Z') },
    });
    expect(recovered.subject).toBe('Mimamori: “価格ページ” is working again');
    expect(recovered.text).toContain(
      'work again as of Nov 25, 2026, 12:00 (Japan time); they had failed since Nov 25, 2026, 10:00 (Japan time).',
    );
  });

  it('says a site has not changed for its days, in Japanese and English (docs/product.md#silence-alerts)', () => {
    const ja = failureMailContent({ ...base, lang: 'ja', silent: { days: 7, since } });
    expect(ja.subject).toBe('【Mimamori】「価格ページ」は7日間変更がありません');
    expect(ja.text).toContain('「価格ページ」は2026年11月25日 10:00（日本時間）から7日間変更がありません。');
    const en = failureMailContent({ ...base, lang: 'en', timezone: 'UTC', silent: { days: 1, since } });
    expect(en.subject).toBe('Mimamori: “価格ページ” has not changed for 1 day');
    expect(en.text).toContain('has not changed since Nov 25, 2026, 01:00 (UTC), 1 day ago');
    const discord = failureDiscordMessage({ ...base, lang: 'en', silent: { days: 7, since } });
    expect(discord.payload.embeds[0]?.title).toBe('Mimamori: “価格ページ” has not changed for 7 days');
  });

  it('escapes the label in the HTML and keeps Discord within its limits', () => {
    const notice = {
      ...base,
      label: '<b>x</b>'.repeat(100),
      lang: 'en' as const,
      failure: { kind: 'timeout' as const, areaId: '', areaName: '', count: 3, since },
    };
    expect(failureMailContent(notice).html).not.toContain('<b>x</b>');
    const embed = failureDiscordMessage(notice).payload.embeds[0];
    expect(embed?.title.length).toBeLessThanOrEqual(256);
    expect(embed?.color).toBe(0xb91c1c);
    expect(
      failureDiscordMessage({ ...base, lang: 'ja', recovered: { since, at: since } }).payload.embeds[0]
        ?.color,
    ).toBe(0x0f766e);
  });
});
