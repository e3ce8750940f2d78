import { describe, expect, it } from 'vitest';
import { updateMailContent } from './update-mail-content.ts';

describe('update mail content', () => {
  it('carries the diff exactly in the text and escaped in the HTML, with the pictures inline and attached', () => {
    const content = updateMailContent({
      label: '<b>Shop</b>',
      url: 'https://shop.example.jp/?a=1&b=2',
      lang: 'en',
      timezone: 'UTC',
      detectedAt: new Date('2026-11-23T14:05:00Z'),
      areas: [{ areaId: 'price', diffText: '- <old> & 1,200\n+ 980' }],
      matched: [],
      images: [{ name: 'after', data: Uint8Array.of(1, 2), contentType: 'image/webp' }],
    });
    expect(content.subject).toBe('Mimamori: update on <b>Shop</b>');
    expect(content.text).toContain('- <old> & 1,200\n+ 980');
    expect(content.html).toContain('- &lt;old&gt; &amp; 1,200\n+ 980');
    expect(content.html).toContain('&lt;b&gt;Shop&lt;/b&gt;');
    expect(content.html).toContain('href="https://shop.example.jp/?a=1&amp;b=2"');
    expect(content.html).toContain('<img src="cid:after"');
    expect(content.attachments).toEqual([
      { filename: 'after.webp', content: Uint8Array.of(1, 2), contentType: 'image/webp', cid: 'after' },
    ]);
  });
});
