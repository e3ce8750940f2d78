import { escapeHtml } from '@mimamori/mail/html-escape';
import { brandedMail, mailButton } from './mail-layout.ts';

export type AccountMailKind =
  | 'verify_email'
  | 'verify_mail'
  | 'change_email'
  | 'email_taken'
  | 'reset_password'
  | 'support_received';

/** The page each kind's link opens; the token goes in its query. */
export const LINK_PATHS: Partial<Record<AccountMailKind, string>> = {
  verify_email: '/verify',
  verify_mail: '/verify',
  change_email: '/verify',
  reset_password: '/reset_pass',
  support_received: '/req_support',
};

interface Copy {
  subject: string;
  lines: string[];
  action?: string;
}

const SUPPORT_TYPES: Record<string, { ja: string; en: string }> = {
  navigation: { ja: '全般的な操作方法', en: 'General navigation' },
  login_action: { ja: 'ログイン・アクション設定', en: 'Login and action settings' },
  area: { ja: '監視範囲の設定', en: 'Area settings' },
  notification: { ja: '通知設定', en: 'Notification settings' },
  other: { ja: 'その他', en: 'Other' },
};

function copy(kind: AccountMailKind, lang: 'ja' | 'en', supportType: string): Copy {
  const type = SUPPORT_TYPES[supportType]?.[lang] ?? supportType;
  const ja: Record<AccountMailKind, Copy> = {
    verify_email: {
      subject: '【Mimamori】メールアドレスの確認',
      lines: [
        'Mimamori にご登録いただきありがとうございます。14日間の無料トライアルが始まりました。',
        '下のリンクを開いてメールアドレスを確認してください（24時間有効）。',
      ],
      action: 'メールアドレスを確認する',
    },
    verify_mail: {
      subject: '【Mimamori】通知先メールアドレスの確認',
      lines: [
        'このアドレスが Mimamori の通知先に追加されました。',
        '下のリンクを開くと通知の送信が始まります（24時間有効）。',
      ],
      action: 'アドレスを確認する',
    },
    change_email: {
      subject: '【Mimamori】新しいメールアドレスの確認',
      lines: [
        'サインインに使うメールアドレスの変更を受け付けました。',
        '下のリンクを開くと変更が完了します（24時間有効）。',
      ],
      action: 'このアドレスに変更する',
    },
    email_taken: {
      subject: '【Mimamori】登録のお試しがありました',
      lines: [
        'このメールアドレスで Mimamori への新規登録が試みられましたが、すでにアカウントがあります。',
        'パスワードをお忘れの場合はサインイン画面から再設定できます。心当たりがなければこのメールは無視してください。',
      ],
    },
    reset_password: {
      subject: '【Mimamori】パスワードの再設定',
      lines: [
        'パスワード再設定のご依頼を受け付けました。',
        '下のリンクから新しいパスワードを設定してください（1時間有効、1回限り）。',
      ],
      action: 'パスワードを再設定する',
    },
    support_received: {
      subject: '【Mimamori】サポートのご依頼を受け付けました',
      lines: [`種類: ${type}`, '追加の情報は下のリンクからお送りいただけます（7日間有効）。'],
      action: '追加の情報を送る',
    },
  };
  const en: Record<AccountMailKind, Copy> = {
    verify_email: {
      subject: 'Mimamori: confirm your e-mail address',
      lines: [
        'Thank you for signing up. Your 14-day free trial has started.',
        'Open the link below to confirm your address (valid for 24 hours).',
      ],
      action: 'Confirm my address',
    },
    verify_mail: {
      subject: 'Mimamori: confirm a notification address',
      lines: [
        'This address was added to a Mimamori account for notifications.',
        'Open the link below to start receiving them (valid for 24 hours).',
      ],
      action: 'Confirm this address',
    },
    change_email: {
      subject: 'Mimamori: confirm your new e-mail address',
      lines: [
        'We received a request to sign in with this address from now on.',
        'Open the link below to complete the change (valid for 24 hours).',
      ],
      action: 'Use this address',
    },
    email_taken: {
      subject: 'Mimamori: someone tried to sign up with your address',
      lines: [
        'Someone tried to create a Mimamori account with this address, which already has one.',
        'If you forgot your password, reset it from the sign-in page. Otherwise you can ignore this mail.',
      ],
    },
    reset_password: {
      subject: 'Mimamori: reset your password',
      lines: [
        'We received a request to reset your password.',
        'Set a new one with the link below (valid for 1 hour, once).',
      ],
      action: 'Reset my password',
    },
    support_received: {
      subject: 'Mimamori: we received your support request',
      lines: [`Type: ${type}`, 'You can send us more details with the link below (valid for 7 days).'],
      action: 'Add details',
    },
  };
  return (lang === 'en' ? en : ja)[kind];
}

export function isAccountMailKind(kind: string): kind is AccountMailKind {
  return [
    'verify_email',
    'verify_mail',
    'change_email',
    'email_taken',
    'reset_password',
    'support_received',
  ].includes(kind);
}

/** The mail in the account's language, as plain text and as HTML with the same link. */
export function accountMailContent(
  kind: AccountMailKind,
  lang: string,
  link: string | null,
  supportType = '',
): { subject: string; text: string; html: string } {
  const language = lang === 'en' ? 'en' : 'ja';
  const { subject, lines, action } = copy(kind, language, supportType);
  const text = [...lines, ...(link ? ['', link] : []), '', '-- Mimamori'].join('\n');
  const body = [
    ...lines.map((line) => `<p style="margin:0 0 12px">${escapeHtml(line)}</p>`),
    link && action ? mailButton(link, action) : '',
  ].join('\n');
  const html = brandedMail({
    lang: language,
    title: subject,
    preheader: lines[0] ?? subject,
    body,
    footer: FOOTER[language],
  });
  return { subject, text, html };
}

const FOOTER = {
  ja: 'このメールは Mimamori のアカウントに関するお知らせです。',
  en: 'This mail is about your Mimamori account.',
} as const;
