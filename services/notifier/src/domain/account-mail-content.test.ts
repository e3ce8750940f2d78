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

  it.each([
    ['trial_ending', 'ja', '3日後に終了', '2026年12月10日'],
    ['trial_ending', 'en', 'ends in 3 days', '10 December 2026'],
    ['trial_ended_no_card', 'ja', '監視を停止しました', '2026年12月10日'],
    ['trial_ended_no_card', 'en', 'monitoring stopped', 'cancelled'],
    ['payment_failed', 'ja', 'お支払いができませんでした', '保留'],
    ['payment_failed', 'en', 'payment failed', '10 December 2026'],
    ['account_held', 'ja', '保留', '再開'],
    ['account_held', 'en', 'on hold', 'Resume your sites yourself'],
    ['plan_changed', 'ja', 'プランを変更', 'Basic 25'],
    ['plan_changed', 'en', 'plan has changed', 'Basic 25'],
    ['cancellation_confirmed', 'ja', '解約を受け付けました', '取り消せます'],
    ['cancellation_confirmed', 'en', 'cancellation is confirmed', 'undo'],
  ] as const)('billing: %s in %s, as text and HTML with the link', (kind, lang, subject, body) => {
    const content = accountMailContent(kind, lang, 'https://x.example/account', '', {
      date: new Date('2026-12-10T03:00:00Z'),
      plan: 5,
    });
    expect(content.subject).toContain(subject);
    expect(content.text).toContain(body);
    expect(content.html).toContain(body);
    expect(content.html).toContain(`lang="${lang}"`);
    expect(content.text).toContain('https://x.example/account');
    expect(content.html).toContain('href="https://x.example/account"');
  });

  it('writes the date in the user’s time zone, named in the mail’s language', () => {
    const date = new Date('2026-12-10T20:00:00Z');
    const written = (lang: 'ja' | 'en', timezone: string) =>
      accountMailContent('trial_ending', lang, null, '', { date, plan: 3, timezone }).text;
    expect(written('en', 'America/New_York')).toContain('10 December 2026 at 15:00 Eastern Time');
    expect(written('en', 'Asia/Tokyo')).toContain('11 December 2026 at 05:00 Japan time');
    expect(written('ja', 'UTC')).toContain('2026年12月10日 20:00（UTC）');
    // The zone the picker offers a browser that names none: its offset, the sign read forwards.
    expect(written('ja', 'Etc/GMT-9')).toContain('2026年12月11日 5:00（UTC+9）');
    // A zone Intl does not know is not guessed at: the language's default stands.
    expect(written('en', 'Mars/Olympus')).toContain('10 December 2026 at 20:00 UTC');
  });

  it('writes a Japanese date in Japan’s time and an English one in UTC when no zone is chosen', () => {
    const date = new Date('2026-12-10T20:00:00Z');
    expect(accountMailContent('trial_ending', 'ja', null, '', { date, plan: 3 }).text).toContain(
      '2026年12月11日 5:00（日本時間）',
    );
    expect(accountMailContent('trial_ending', 'en', null, '', { date, plan: 3 }).text).toContain(
      '10 December 2026 at 20:00 UTC',
    );
  });
});
