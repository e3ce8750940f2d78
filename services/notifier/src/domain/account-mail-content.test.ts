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
    [
      'trial_ending',
      'ja',
      '【Mimamori】無料トライアルは3日後に終了します',
      '無料トライアルは2026年12月10日 12:00（日本時間）に終了します。',
    ],
    ['trial_ending', 'en', 'Mimamori: your free trial ends in 3 days', 'ends on Dec 10, 2026, 03:00 (UTC)'],
    [
      'trial_ended_no_card',
      'ja',
      '【Mimamori】無料トライアルが終了し、監視を停止しました',
      '2026年12月10日 12:00',
    ],
    ['trial_ended_no_card', 'en', 'Mimamori: your free trial ended and monitoring stopped', 'cancelled'],
    ['payment_failed', 'ja', '【Mimamori】お支払いができませんでした', '保留'],
    ['payment_failed', 'en', 'Mimamori: your payment failed', 'by Dec 10, 2026, 03:00 (UTC)'],
    ['account_held', 'ja', '【Mimamori】アカウントを保留にしました', '再開'],
    ['account_held', 'en', 'Mimamori: your account is on hold', 'Resume your sites yourself'],
    ['hold_lifted', 'ja', '【Mimamori】アカウントの保留を解除しました', '一時停止のままです'],
    ['hold_lifted', 'en', 'Mimamori: the hold on your account is lifted', 'still paused'],
    ['plan_changed', 'ja', '【Mimamori】プランを変更しました', '「ベーシック25」になりました'],
    ['plan_changed', 'en', 'Mimamori: your plan has changed', 'Your plan is now Basic 25.'],
    [
      'plan_change_booked',
      'ja',
      '【Mimamori】プランの変更を予約しました',
      '2026年12月10日 12:00（日本時間）の更新から、プランは「ベーシック25」に変わります。',
    ],
    [
      'plan_change_booked',
      'en',
      'Mimamori: your plan change is booked',
      'From your next renewal on Dec 10, 2026, 03:00 (UTC), your plan will be Basic 25.',
    ],
    [
      'booked_change_cancelled',
      'ja',
      '【Mimamori】プラン変更の予約を取り消しました',
      '「ベーシック25」のまま',
    ],
    [
      'booked_change_cancelled',
      'en',
      'Mimamori: your booked plan change is cancelled',
      'You stay on Basic 25',
    ],
    [
      'cancellation_confirmed',
      'ja',
      '【Mimamori】解約を受け付けました',
      '2026年12月10日 12:00（日本時間）までは',
    ],
    [
      'cancellation_confirmed',
      'en',
      'Mimamori: your cancellation is confirmed',
      'until Dec 10, 2026, 03:00 (UTC)',
    ],
    [
      'cancellation_undone',
      'ja',
      '【Mimamori】解約を取り消しました',
      '「ベーシック25」は2026年12月10日 12:00（日本時間）にこれまでどおり更新されます。',
    ],
    [
      'cancellation_undone',
      'en',
      'Mimamori: your cancellation is undone',
      'Basic 25 renews as usual on Dec 10, 2026, 03:00 (UTC).',
    ],
  ] as const)('billing: %s in %s, as text and HTML with the link', (kind, lang, subject, body) => {
    const content = accountMailContent(kind, lang, 'https://x.example/account', '', {
      date: new Date('2026-12-10T03:00:00Z'),
      plan: 5,
    });
    expect(content.subject).toBe(subject);
    expect(content.text).toContain(body);
    expect(content.html).toContain(body);
    expect(content.html).toContain(`lang="${lang}"`);
    expect(content.text).toContain('https://x.example/account');
    expect(content.html).toContain('href="https://x.example/account"');
  });

  it('tells a deleted account the date everything is erased, in the reader’s language and zone', () => {
    const facts = { date: new Date('2027-01-05T03:00:00Z'), plan: 0 };
    const ja = accountMailContent('account_deleted', 'ja', null, '', facts);
    expect(ja.subject).toBe('【Mimamori】アカウントを削除しました');
    expect(ja.text).toContain('2027年1月5日 12:00（日本時間）にすべて消去されます。');
    expect(ja.html).toContain('このメールに返信して');
    const en = accountMailContent('account_deleted', 'en', null, '', {
      ...facts,
      timezone: 'America/New_York',
    });
    expect(en.subject).toBe('Mimamori: your account is deleted');
    expect(en.text).toContain('erased for good on Jan 4, 2027, 22:00');
  });

  it('names every plan from the catalogue in the reader’s language, never the other one', () => {
    const named = (lang: 'ja' | 'en', plan: number) =>
      accountMailContent('plan_changed', lang, null, '', { date: null, plan }).text.split('\n')[0];
    expect(named('ja', 4)).toBe('ご利用のプランは「ベーシック5 (1分間隔)」になりました。');
    expect(named('en', 4)).toBe('Your plan is now Basic 5 (1-minute interval).');
    expect(named('ja', 11)).toBe('ご利用のプランは「アドバンスト」になりました。');
    expect(named('en', 2)).toBe('Your plan is now Custom.');
    for (const plan of [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) {
      expect(named('ja', plan)).not.toMatch(/Basic|Custom|Advanced/);
    }
  });

  it('writes the date in the user’s time zone, named in the mail’s language', () => {
    const date = new Date('2026-12-10T20:00:00Z');
    const written = (lang: 'ja' | 'en', timezone: string) =>
      accountMailContent('trial_ending', lang, null, '', { date, plan: 3, timezone }).text;
    expect(written('en', 'America/New_York')).toContain('Dec 10, 2026, 15:00 (Eastern Time)');
    expect(written('en', 'Asia/Tokyo')).toContain('Dec 11, 2026, 05:00 (Japan time)');
    expect(written('ja', 'UTC')).toContain('2026年12月10日 20:00（UTC）');
    // The zone the picker offers a browser that names none: its offset, the sign read forwards.
    expect(written('ja', 'Etc/GMT-9')).toContain('2026年12月11日 05:00（UTC+9）');
    // A zone Intl does not know is not guessed at: the language's default stands.
    expect(written('en', 'Mars/Olympus')).toContain('Dec 10, 2026, 20:00 (UTC)');
  });

  it('writes a Japanese date in Japan’s time and an English one in UTC when no zone is chosen', () => {
    const date = new Date('2026-12-10T20:00:00Z');
    expect(accountMailContent('trial_ending', 'ja', null, '', { date, plan: 3 }).text).toContain(
      '2026年12月11日 05:00（日本時間）',
    );
    expect(accountMailContent('trial_ending', 'en', null, '', { date, plan: 3 }).text).toContain(
      'Dec 10, 2026, 20:00 (UTC)',
    );
  });

  it('tells once that a chat link broke: the platform, the chat, why, and where to link it again', () => {
    const chat = { platform: 'chatwork', label: 'Room 7001', reason: 'chatwork_token_revoked' };
    const ja = accountMailContent('chat_link_broken', 'ja', 'https://x.example/account', '', {
      date: null,
      plan: 0,
      chat,
    });
    expect(ja.subject).toBe('【Mimamori】Chatwork への通知が止まっています');
    expect(ja.text).toContain(
      'Chatwork「Room 7001」への通知を送れなくなりました: 連携の許可（トークン）が取り消されました。',
    );
    expect(ja.text).toContain('https://x.example/account');
    const en = accountMailContent('chat_link_broken', 'en', 'https://x.example/account', '', {
      date: null,
      plan: 0,
      chat: { platform: 'telegram', label: 'Team <b>', reason: 'telegram_bot_blocked' },
    });
    expect(en.subject).toBe('Mimamori: notifications to Telegram have stopped');
    expect(en.text).toContain('the chat was removed or the bot was taken out of it');
    expect(en.html).toContain('Team &lt;b&gt;');
  });

  it('invites to a workspace by name, with the role offered, who invited, and the link', () => {
    const invitation = { workspaceName: '価格調査チーム', role: 'editor', inviterName: '佐藤 花子' };
    const ja = accountMailContent('workspace_invitation', 'ja', 'https://x.example/invitation?token=t', '', {
      date: null,
      plan: 0,
      invitation,
    });
    expect(ja.subject).toBe('【Mimamori】ワークスペース「価格調査チーム」への招待');
    expect(ja.text).toContain(
      '佐藤 花子 さんがMimamori のワークスペース「価格調査チーム」に編集者としてあなたを招待しました。',
    );
    expect(ja.text).toContain('https://x.example/invitation?token=t');
    const en = accountMailContent('workspace_invitation', 'en', 'https://x.example/invitation?token=t', '', {
      date: null,
      plan: 0,
      invitation: { workspaceName: 'Acme <b>', role: 'viewer', inviterName: '' },
    });
    expect(en.text).toContain('Someone invited you to the Mimamori workspace “Acme <b>” as a viewer.');
    expect(en.html).toContain('Acme &lt;b&gt;');
    expect(en.html).toContain('Accept the invitation');
  });

  it.each([
    [
      'slack_not_in_channel',
      'Slack のチャンネルからアプリが外されました',
      'the app was removed from the Slack channel',
    ],
    ['slack_is_archived', 'Slack のチャンネルがアーカイブされました', 'the Slack channel was archived'],
    [
      'teams_workflow_turned_off',
      'Teams のワークフローがオフにされました',
      'the Teams workflow was turned off',
    ],
  ])('says what happened on the platform for %s', (reason, ja, en) => {
    const facts = (platform: string) => ({
      date: null,
      plan: 0,
      chat: { platform, label: '#general', reason },
    });
    const platform = reason.split('_')[0] ?? '';
    expect(
      accountMailContent('chat_link_broken', 'ja', 'https://x.example/account', '', facts(platform)).text,
    ).toContain(`への通知を送れなくなりました: ${ja}。`);
    expect(
      accountMailContent('chat_link_broken', 'en', 'https://x.example/account', '', facts(platform)).text,
    ).toContain(en);
  });
});
