import { describe, expect, it } from 'vitest';
import { type FilingNotice, filingDiscordMessage, filingMailContent } from './filing-notice.ts';

const notice: FilingNotice = {
  lang: 'ja',
  timezone: 'Asia/Tokyo',
  followLabel: 'トヨタ自動車株式会社',
  companyName: 'トヨタ自動車',
  companyCode: '7203',
  source: 'tdnet',
  title: '2026年3月期 決算短信〔IFRS〕(連結) <速報>',
  documentUrl: 'https://www.release.tdnet.info/inbs/140120260508512345.pdf',
  // 06:30 UTC is 15:30 in Tokyo and 02:30 in New York (summer time).
  publishedAt: new Date('2026-05-08T06:30:00Z'),
};

describe('filing notices', () => {
  it('mails the title, company, time in the reader’s zone and the link, in Japanese', () => {
    const mail = filingMailContent(notice);
    expect(mail.subject).toBe(
      '【Mimamori】新しい開示: トヨタ自動車「2026年3月期 決算短信〔IFRS〕(連結) <速報>」',
    );
    expect(mail.text).toContain('企業: トヨタ自動車 (7203)');
    expect(mail.text).toContain('開示日時: 2026年5月8日 15:30（日本時間）');
    expect(mail.text).toContain('開示元: TDnet');
    expect(mail.text).toContain(`書類を開く: ${notice.documentUrl}`);
    expect(mail.html).toContain('<html lang="ja">');
    // The source's title is text, never markup.
    expect(mail.html).toContain('&lt;速報&gt;');
    expect(mail.html).not.toContain('<速報>');
    expect(mail.html).toContain(`href="${notice.documentUrl}"`);
  });

  it('writes English in the reader’s zone', () => {
    const mail = filingMailContent({ ...notice, lang: 'en', timezone: 'America/New_York' });
    expect(mail.subject).toBe('Mimamori: トヨタ自動車 filed "2026年3月期 決算短信〔IFRS〕(連結) <速報>"');
    expect(mail.text).toContain('Published: May 8, 2026, 02:30 (Eastern Time)');
    expect(mail.text).toContain('Open the document: https://www.release.tdnet.info/');
    expect(mail.html).toContain('<html lang="en">');
  });

  it('shows no link that is not http(s)', () => {
    const mail = filingMailContent({ ...notice, documentUrl: 'javascript:alert(1)' });
    expect(mail.text).not.toContain('javascript:');
    expect(mail.html).not.toContain('javascript:');
    expect(
      filingDiscordMessage({ ...notice, documentUrl: 'javascript:alert(1)' }).payload.embeds[0],
    ).not.toHaveProperty('url');
  });

  it('posts one embed: the title linking to the document, company, time and source', () => {
    const message = filingDiscordMessage({ ...notice, lang: 'en', timezone: 'UTC' });
    expect(message.files).toEqual([]);
    expect(message.payload.allowed_mentions).toEqual({ parse: [] });
    expect(message.payload.embeds).toEqual([
      expect.objectContaining({
        title: notice.title,
        url: notice.documentUrl,
        timestamp: '2026-05-08T06:30:00.000Z',
        fields: [
          { name: 'Company', value: 'トヨタ自動車 (7203)' },
          { name: 'Published', value: 'May 8, 2026, 06:30 (UTC)' },
          { name: 'Source', value: 'TDnet', inline: true },
          { name: 'Open the document', value: notice.documentUrl },
        ],
      }),
    ]);
  });
});
