import { describe, expect, it } from 'vitest';
import { FROM, freshDir, PNG } from './mail-test-data.ts';
import { createMailbox } from './mailbox.ts';
import { renderMailboxPage, renderMailPage } from './mailbox-pages.ts';

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

describe('mailbox pages', () => {
  const hostile = '<script>alert("件名")</script> & 価格';

  it('lists mail with the subject escaped and linked under the base path', async () => {
    const mailbox = await createMailbox(await freshDir(), { from: FROM });
    await mailbox.send({ to: ['hanako@example.jp'], subject: hostile, text: 'x' });
    const [entry] = await mailbox.list();

    const html = await renderMailboxPage(mailbox, { basePath: '/dev/mailbox/' });

    expect(html).toContain('&lt;script&gt;alert(&quot;件名&quot;)&lt;/script&gt; &amp; 価格');
    expect(html).not.toContain('<script>');
    expect(html).toContain(`href="/dev/mailbox/${entry?.id}"`);
  });

  it('says so when there is no mail', async () => {
    const mailbox = await createMailbox(await freshDir(), { from: FROM });
    expect(await renderMailboxPage(mailbox, { basePath: '/dev/mailbox' })).toContain('No mail yet.');
  });

  it('shows one mail: text escaped, HTML only inside a sandboxed srcdoc iframe, attachments as links', async () => {
    const mailbox = await createMailbox(await freshDir(), { from: FROM });
    await mailbox.send({
      to: ['hanako@example.jp'],
      subject: hostile,
      text: 'テキスト <b>not bold</b>',
      html: '<p onclick="steal()">本文 "quoted"</p><script>steal()</script>',
      attachments: [{ filename: 'before<1>.png', content: PNG, contentType: 'image/png' }],
    });
    const [entry] = await mailbox.list();

    const html = (await renderMailPage(mailbox, entry?.id ?? '', { basePath: '/dev/mailbox' })) ?? '';

    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<p onclick');
    expect(html).toContain('<h1>&lt;script&gt;alert(&quot;件名&quot;)&lt;/script&gt; &amp; 価格</h1>');
    expect(html).toContain('<pre>テキスト &lt;b&gt;not bold&lt;/b&gt;');
    const iframe = html.match(/<iframe sandbox="" [^>]*srcdoc="([^"]*)"><\/iframe>/);
    expect(iframe).not.toBeNull();
    // What the browser hands the iframe: the attribute value with its entities decoded.
    const srcdoc = (iframe?.[1] ?? '').replace(
      /&(amp|lt|gt|quot|#39);/g,
      (entity) => ENTITIES[entity] ?? entity,
    );
    expect(srcdoc).toContain('<p onclick="steal()">本文 "quoted"</p>');
    expect(srcdoc).toContain(`Content-Security-Policy" content="default-src 'none'`);
    expect(html).toContain(`<a href="/dev/mailbox/${entry?.id}/attachments/0">before&lt;1&gt;.png</a>`);
  });

  it('answers null for a mail that is not there', async () => {
    const mailbox = await createMailbox(await freshDir(), { from: FROM });
    expect(
      await renderMailPage(mailbox, '20260101T000000000Z-00000000', { basePath: '/dev/mailbox' }),
    ).toBeNull();
  });
});
