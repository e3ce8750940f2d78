import { describe, expect, it } from 'vitest';
import { accountMailContent } from './account-mail-content.ts';

describe('account mail content', () => {
  it.each([
    ['verify_email', 'ja', 'メールアドレスの確認'],
    ['verify_email', 'en', 'confirm your e-mail address'],
    ['verify_mail', 'en', 'notification address'],
    ['change_email', 'ja', '新しいメールアドレス'],
    ['email_taken', 'ja', '登録のお試し'],
    ['reset_password', 'en', 'reset your password'],
    ['support_received', 'ja', 'サポート'],
  ] as const)('%s in %s', (kind, lang, subject) => {
    const content = accountMailContent(
      kind,
      lang,
      kind === 'email_taken' ? null : 'https://x.example/p?token=t',
      'area',
    );
    expect(content.subject).toContain(subject);
    expect(content.html).toContain(`lang="${lang}"`);
    if (kind !== 'email_taken') {
      expect(content.text).toContain('https://x.example/p?token=t');
      expect(content.html).toContain('href="https://x.example/p?token=t"');
    }
  });

  it('names the support type in the reader’s language and escapes what goes into HTML', () => {
    expect(accountMailContent('support_received', 'en', null, 'area').text).toContain('Type: Area settings');
    const odd = accountMailContent('support_received', 'en', 'https://x.example/?token=a&b="c"', '<b>x</b>');
    expect(odd.html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(odd.html).toContain('href="https://x.example/?token=a&amp;b=&quot;c&quot;"');
  });

  it('is the branded mail with a teal button, like the update mail', () => {
    const { html } = accountMailContent('reset_password', 'en', 'https://x.example/?token=t');
    expect(html).toMatch(/<td style="background:#0f766e[^"]*">\s*<span[^>]*>Mimamori<\/span>/);
    expect(html).toMatch(
      /<td style="background:#0f766e[^"]*"><a href="https:\/\/x\.example\/\?token=t"[^>]*>Reset my password<\/a>/,
    );
    expect(html).not.toContain('#2563eb');
  });

  it('falls back to Japanese for an unknown language', () => {
    expect(accountMailContent('reset_password', 'fr', 'https://x.example/?token=t').subject).toContain(
      '再設定',
    );
  });
});
