import { describe, expect, it } from 'vitest';
import { updateMailContent } from './update-mail-content.ts';
import type { UpdateNotice } from './update-notice.ts';

const notice = (overrides: Partial<UpdateNotice> = {}): UpdateNotice => ({
  label: '<b>Shop</b>',
  url: 'https://shop.example.jp/?a=1&b=2',
  lang: 'en',
  timezone: 'UTC',
  detectedAt: new Date('2026-11-23T14:05:00Z'),
  summary: '1,200 → 980 (−18 %)',
  areas: [
    {
      areaId: 'area-1',
      label: 'Sale price',
      diffText: '- <old> & 1,200\n+ 980',
      summary: '1,200 → 980 (−18 %)',
    },
  ],
  areaLabels: { 'area-1': 'Sale price' },
  historyUrl: 'https://mimamori.example/target2?id=t-1&x=<y>',
  matched: [],
  images: [{ name: 'after', data: Uint8Array.of(1, 2), contentType: 'image/jpeg' }],
  ...overrides,
});

describe('update mail content', () => {
  it('carries the diff exactly in the text and escaped in the HTML, with the pictures inline and attached', () => {
    const content = updateMailContent(notice());
    expect(content.subject).toBe('Mimamori: 1,200 → 980 (−18 %) | <b>Shop</b>');
    expect(content.text.split('\n')[0]).toBe('1,200 → 980 (−18 %)');
    expect(content.html).toContain('font-weight:bold">1,200 → 980 (−18 %)</p>');
    expect(content.text).toContain('- <old> & 1,200\n+ 980');
    expect(content.html).toContain('- &lt;old&gt; &amp; 1,200</div>');
    expect(content.html).toContain('>+ 980</div>');
    expect(content.html).not.toContain('<b>Shop</b>');
    expect(content.html).toContain('&lt;b&gt;Shop&lt;/b&gt;');
    expect(content.html).toContain('href="https://shop.example.jp/?a=1&amp;b=2"');
    expect(content.html).toContain('<img src="cid:after"');
    expect(content.attachments).toEqual([
      { filename: 'after.jpeg', content: Uint8Array.of(1, 2), contentType: 'image/jpeg', cid: 'after' },
    ]);
  });

  it('names each area as the person did, not by its id', () => {
    const content = updateMailContent(notice());
    expect(content.text).toContain('[Sale price]\n- <old>');
    expect(content.text).not.toContain('area-1');
    expect(content.html).toContain('>Sale price</p>');
    expect(content.html).not.toContain('area-1');
  });

  it('links to the site’s history with a button in the HTML and the address in the text', () => {
    const content = updateMailContent(notice());
    expect(content.text).toContain('Open the history: https://mimamori.example/target2?id=t-1&x=<y>');
    expect(content.html).toMatch(
      /<td style="background:#0f766e[^"]*"><a href="https:\/\/mimamori\.example\/target2\?id=t-1&amp;x=&lt;y&gt;"[^>]*>Open the history<\/a><\/td>/,
    );
    const withoutAddress = updateMailContent(notice({ historyUrl: '' }));
    expect(withoutAddress.text).not.toContain('Open the history');
    expect(withoutAddress.html).not.toContain('Open the history');
  });

  it('gives the time in the reader’s zone by a readable name', () => {
    const ja = updateMailContent(notice({ lang: 'ja', timezone: 'Etc/GMT-9' }));
    expect(ja.text).toContain('検知日時: 2026年11月23日 23:05（UTC+9）');
    expect(ja.html).toContain('2026年11月23日 23:05（UTC+9）');
    const tokyo = updateMailContent(notice({ lang: 'ja', timezone: 'Asia/Tokyo' }));
    expect(tokyo.text).toContain('2026年11月23日 23:05（日本時間）');
    const english = updateMailContent(notice({ lang: 'en', timezone: 'Asia/Tokyo' }));
    expect(english.text).toContain('Nov 23, 2026, 23:05 (Japan time)');
  });

  it('is branded, table-based HTML with inline styles in the product’s teal, in the reader’s language', () => {
    for (const lang of ['ja', 'en'] as const) {
      const { html } = updateMailContent(notice({ lang }));
      expect(html).toContain(`<html lang="${lang}">`);
      expect(html).toMatch(/<td style="background:#0f766e[^"]*">\s*<span[^>]*>Mimamori<\/span>/);
      expect(html).toContain('<table role="presentation"');
      // Mail programs drop <style> blocks and outside stylesheets, and most ignore flex and grid.
      expect(html).not.toMatch(/<style|<link|display:\s*(flex|grid)/);
      // No blue left from the earlier, unbranded mail.
      expect(html).not.toContain('#2563eb');
    }
    expect(updateMailContent(notice({ lang: 'ja' })).html).toContain('監視中のサイトに更新がありました。');
    expect(updateMailContent(notice({ lang: 'ja' })).html).toContain('>履歴を見る</a>');
  });
});
