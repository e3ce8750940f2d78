import { escapeHtml } from '@mimamori/mail/html-escape';
import { type Currency, type Cycle, formatPrice, includedConsumptionTax, planName } from '@mimamori/plans';
import { brandedMail, mailButton } from './mail-layout.ts';
import { writtenTime } from './written-time.ts';

export type AccountMailKind =
  | 'verify_email'
  | 'verify_mail'
  | 'change_email'
  | 'email_taken'
  | 'reset_password'
  | 'support_received'
  | 'chat_link_broken'
  | 'workspace_invitation'
  | 'new_device'
  | BillingMailKind;

/** Billing's mails (docs/billing.md): no token; the link opens the screen where the user acts. */
export type BillingMailKind =
  | 'trial_ending'
  | 'trial_ended_no_card'
  | 'payment_failed'
  | 'account_held'
  | 'hold_lifted'
  | 'plan_changed'
  | 'plan_change_booked'
  | 'booked_change_cancelled'
  | 'cancellation_confirmed'
  | 'cancellation_undone'
  | 'account_deleted'
  | 'subscribed_again';

export const BILLING_LINK_PATHS: Record<BillingMailKind, string> = {
  trial_ending: '/newcard',
  trial_ended_no_card: '/newcard',
  payment_failed: '/account',
  account_held: '/account',
  // The sites stay paused after a hold; the dashboard is where they are resumed.
  hold_lifted: '/',
  plan_changed: '/account',
  // Where the booked change is shown and can be withdrawn.
  plan_change_booked: '/planchange',
  booked_change_cancelled: '/account',
  cancellation_confirmed: '/account',
  cancellation_undone: '/account',
  // The account can no longer sign in: the link leads to the product's front page.
  account_deleted: '/',
  // Sites the end paused stay paused; the dashboard resumes them in one click.
  subscribed_again: '/',
};

/**
 * What a billing mail names: a date (trial end, hold deadline, delete date, period end, the renewal
 * a booked change takes effect at) and a plan, and the user's time zone to write the date in
 * (empty: none chosen).
 */
export interface BillingFacts {
  date: Date | null;
  plan: number;
  timezone?: string;
  /** The plan's price per cycle as charged (tax-inclusive), when configured. */
  price?: { amount: number; currency: Currency; cycle: Cycle };
  /** chat_link_broken: the link's platform, the chat's name and why it broke (docs/product.md#chat-links). */
  chat?: { platform: string; label: string; reason: string };
  /** workspace_invitation: the workspace's name, the role offered and who invited. */
  invitation?: { workspaceName: string; role: string; inviterName: string };
  /** new_device: the sign-in's browser and system (empty when unknown) and its address; its time is `date`. */
  device?: { browser: string; os: string; clientAddress: string };
}

/**
 * "月額¥980（税込、うち消費税¥89）" / "$7.00 a month (no Japanese consumption tax)": the price as
 * every screen shows it (総額表示, docs/product.md#prices).
 */
function writtenPrice(price: BillingFacts['price'], lang: 'ja' | 'en'): string {
  if (!price) return '';
  const money = formatPrice(price.amount, price.currency);
  const tax = includedConsumptionTax(price.amount, price.currency);
  if (lang === 'ja') {
    const cycle = price.cycle === 'year' ? '年額' : '月額';
    return tax === null
      ? `${cycle}${money}（日本の消費税の対象外）`
      : `${cycle}${money}（税込、うち消費税${formatPrice(tax, 'JPY')}）`;
  }
  const cycle = price.cycle === 'year' ? 'a year' : 'a month';
  return tax === null
    ? `${money} ${cycle} (no Japanese consumption tax)`
    : `${money} ${cycle} (tax included: ${formatPrice(tax, 'JPY')} consumption tax)`;
}

/** "macOSのChrome" / "Chrome on macOS"; a browser or system not told apart reads as unknown. */
function writtenDevice(device: BillingFacts['device'], lang: 'ja' | 'en'): string {
  const unknown = lang === 'ja' ? '不明' : 'unknown';
  const browser = device?.browser || (lang === 'ja' ? '不明なブラウザ' : 'an unknown browser');
  if (!device?.os) return device?.browser ? browser : unknown;
  return lang === 'ja' ? `${device.os}の${browser}` : `${browser} on ${device.os}`;
}

const CHAT_PLATFORM_NAMES: Record<string, string> = {
  slack: 'Slack',
  teams: 'Microsoft Teams',
  line: 'LINE',
  chatwork: 'Chatwork',
  telegram: 'Telegram',
};

/** Why a link broke, in words; the adapters' reasons end in what happened to the platform's side. */
function chatBreakage(reason: string, lang: 'ja' | 'en'): string {
  // What the user can undo on the platform's side before linking again (as the account page says).
  if (reason === 'slack_not_in_channel') {
    return lang === 'ja'
      ? 'Slack のチャンネルからアプリが外されました'
      : 'the app was removed from the Slack channel';
  }
  if (reason === 'slack_is_archived') {
    return lang === 'ja' ? 'Slack のチャンネルがアーカイブされました' : 'the Slack channel was archived';
  }
  if (reason === 'teams_workflow_turned_off') {
    return lang === 'ja' ? 'Teams のワークフローがオフにされました' : 'the Teams workflow was turned off';
  }
  if (/token_revoked|token_invalid|revoked|uninstalled/.test(reason)) {
    return lang === 'ja' ? '連携の許可（トークン）が取り消されました' : 'its access (token) was revoked';
  }
  if (/blocked|unfollow|left|removed|gone|not_found/.test(reason)) {
    return lang === 'ja'
      ? '送信先のチャットが削除されたか、ボットが外されました'
      : 'the chat was removed or the bot was taken out of it';
  }
  return lang === 'ja'
    ? 'サービスがこの送信先への投稿を受け付けなくなりました'
    : 'the service no longer takes messages for it';
}

/** The page each kind's link opens; the token goes in its query. */
export const LINK_PATHS: Partial<Record<AccountMailKind, string>> = {
  verify_email: '/verify',
  verify_mail: '/verify',
  change_email: '/verify',
  reset_password: '/reset_pass',
  support_received: '/req_support',
  workspace_invitation: '/invitation',
};

/** Mails without a token whose link opens a screen where the user acts. */
export const SCREEN_LINK_PATHS: Partial<Record<AccountMailKind, string>> = {
  chat_link_broken: '/account',
  // The session list, where the sign-in can be ended.
  new_device: '/security',
};

/** The roles as the members screen names them (docs/product.md#workspaces). */
const ROLE_NAMES: Record<string, { ja: string; en: string }> = {
  admin: { ja: '管理者', en: 'an admin' },
  editor: { ja: '編集者', en: 'an editor' },
  viewer: { ja: '閲覧者', en: 'a viewer' },
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

function copy(
  kind: AccountMailKind,
  lang: 'ja' | 'en',
  supportType: string,
  facts: BillingFacts = { date: null, plan: 0 },
): Copy {
  const type = SUPPORT_TYPES[supportType]?.[lang] ?? supportType;
  const chatPlatform = CHAT_PLATFORM_NAMES[facts.chat?.platform ?? ''] ?? facts.chat?.platform ?? '';
  const chatLabel = facts.chat?.label ?? '';
  const chatReason = chatBreakage(facts.chat?.reason ?? '', lang);
  const date = facts.date ? writtenTime(facts.date, facts.timezone ?? '', lang) : '';
  const plan = planName(facts.plan, lang);
  const price = writtenPrice(facts.price, lang);
  const workspace = facts.invitation?.workspaceName ?? '';
  const inviter = facts.invitation?.inviterName ?? '';
  const role = ROLE_NAMES[facts.invitation?.role ?? '']?.[lang] ?? facts.invitation?.role ?? '';
  const device = writtenDevice(facts.device, lang);
  const address = facts.device?.clientAddress || (lang === 'ja' ? '不明' : 'unknown');
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
    trial_ending: {
      subject: '【Mimamori】無料トライアルは3日後に終了します',
      lines: [
        `無料トライアルは${date}に終了します。`,
        'カードが登録されていないと、終了後はすべての監視が停止します。料金が自動で請求されることはありません。',
        price
          ? `続けてご利用いただくにはカードを登録してください。登録すると${date}から「${plan}」の有料契約（${price}）に移り、解約するまで自動更新されます。`
          : `続けてご利用いただくにはカードを登録してください。登録すると${date}から「${plan}」の有料契約に移り、解約するまで自動更新されます。`,
        'アカウント画面からいつでも解約でき、解約後も支払い済みの期間の終わりまでご利用いただけます。',
      ],
      action: 'カードを登録する',
    },
    trial_ended_no_card: {
      subject: '【Mimamori】無料トライアルが終了し、監視を停止しました',
      lines: [
        'カードが登録されないまま無料トライアルが終了したため、すべての監視を停止しました。',
        'カードを登録すると監視を再開できます（サイトはご自身で再開してください）。',
        ...(date ? [`${date}までにカードが登録されない場合、アカウントは解約されます。`] : []),
      ],
      action: 'カードを登録する',
    },
    payment_failed: {
      subject: '【Mimamori】お支払いができませんでした',
      lines: [
        'ご登録のカードで更新料金をお支払いいただけませんでした。',
        `${date}までに再処理またはカードの更新でお支払いが完了しない場合、アカウントは保留となり、すべての監視が停止します。`,
      ],
      action: '再処理またはカードを更新する',
    },
    account_held: {
      subject: '【Mimamori】アカウントを保留にしました',
      lines: [
        '期限までにお支払いが完了しなかったため、アカウントを保留にし、すべての監視を停止しました。',
        '再処理またはカードの更新でお支払いが完了すると保留は解除されます。サイトの監視はご自身で再開してください。',
      ],
      action: '再処理またはカードを更新する',
    },
    hold_lifted: {
      subject: '【Mimamori】アカウントの保留を解除しました',
      lines: [
        'お支払いを確認できたため、アカウントの保留を解除しました。',
        '止まっていたサイトは一時停止のままです。ダッシュボードから監視を再開してください。',
      ],
      action: 'ダッシュボードを開く',
    },
    plan_changed: {
      subject: '【Mimamori】プランを変更しました',
      lines: [`ご利用のプランは「${plan}」になりました。`, '上限は新しいプランのものになっています。'],
      action: 'アカウントを確認する',
    },
    plan_change_booked: {
      subject: '【Mimamori】プランの変更を予約しました',
      lines: [
        `${date}の更新から、プランは「${plan}」に変わります。`,
        'それまでは現在のプランをご利用いただけます。予約はプラン変更の画面から取り消せます。',
      ],
      action: 'プラン変更の画面を開く',
    },
    booked_change_cancelled: {
      subject: '【Mimamori】プラン変更の予約を取り消しました',
      lines: ['プラン変更の予約を取り消しました。', `次回の更新後も「${plan}」のままご利用いただけます。`],
      action: 'アカウントを確認する',
    },
    cancellation_confirmed: {
      subject: '【Mimamori】解約を受け付けました',
      lines: [
        `解約を受け付けました。${date}まではこれまでどおりご利用いただけます。`,
        'それまではアカウント画面から解約を取り消せます。',
      ],
      action: 'アカウントを確認する',
    },
    cancellation_undone: {
      subject: '【Mimamori】解約を取り消しました',
      lines: [
        '解約の取り消しを受け付けました。',
        date
          ? `「${plan}」は${date}にこれまでどおり更新されます。`
          : `「${plan}」をこれまでどおりご利用いただけます。`,
      ],
      action: 'アカウントを確認する',
    },
    account_deleted: {
      subject: '【Mimamori】アカウントを削除しました',
      lines: [
        'アカウントの削除を受け付けました。監視はすべて止まり、このアカウントではログインできなくなりました。有料プランの請求もこれ以上ありません。',
        `登録されていたサイト、確認と更新の履歴、画像、通知先などのデータは${date}にすべて消去されます。`,
        'お心当たりのない場合や、消去の前に取り消したい場合は、このメールに返信してお知らせください。',
        '発行済みの領収書（適格請求書）の控えは、法令で定められた期間、決済事業者（Stripe）に保管されます。',
      ],
    },
    subscribed_again: {
      subject: '【Mimamori】ご契約を再開しました',
      lines: [
        `「${plan}」${price ? `（${price}）` : ''}のご契約を再開し、最初の期間の料金をお支払いいただきました。`,
        ...(date
          ? [`${date}に自動更新されます。止めるにはそれまでにアカウント画面から解約してください。`]
          : []),
        '契約終了で止まっていたサイトは一時停止のままです。ダッシュボードから監視を再開してください。',
      ],
      action: 'ダッシュボードを開く',
    },
    chat_link_broken: {
      subject: `【Mimamori】${chatPlatform} への通知が止まっています`,
      lines: [
        `${chatPlatform}「${chatLabel}」への通知を送れなくなりました: ${chatReason}。`,
        'この送信先にはこれ以上送りません。アカウント画面から連携し直すと再開します。このお知らせは一度だけお送りします。',
      ],
      action: '連携し直す',
    },
    workspace_invitation: {
      subject: `【Mimamori】ワークスペース「${workspace}」への招待`,
      lines: [
        `${inviter ? `${inviter} さんが` : ''}Mimamori のワークスペース「${workspace}」に${role}としてあなたを招待しました。`,
        '下のリンクを開き、サインイン（アカウントがなければ登録）して参加してください（7日間有効、一度だけ使えます）。',
        '心当たりがなければ、このメールは無視してください。',
      ],
      action: '招待を受ける',
    },
    new_device: {
      subject: '【Mimamori】新しい端末からログインがありました',
      lines: [
        'これまでに使われていない端末から、あなたのアカウントにログインがありました。',
        `端末: ${device}`,
        `場所（IPアドレス）: ${address}`,
        `日時: ${date}`,
        'ご自身のログインであれば、このメールへの対応は不要です。心当たりがない場合は、セッション一覧からこのログインを終了し、パスワードを変更して2段階認証を設定してください。',
      ],
      action: 'セッション一覧を開く',
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
    trial_ending: {
      subject: 'Mimamori: your free trial ends in 3 days',
      lines: [
        `Your free trial ends on ${date}.`,
        'Without a card, all monitoring stops when it ends. Nothing is charged automatically.',
        price
          ? `Register a card to keep watching your pages: from ${date} you are then on the paid ${plan} plan (${price}), renewed automatically until you cancel.`
          : `Register a card to keep watching your pages: from ${date} you are then on the paid ${plan} plan, renewed automatically until you cancel.`,
        'You can cancel at any time on the account page; the service then lasts to the end of the period paid for.',
      ],
      action: 'Register a card',
    },
    trial_ended_no_card: {
      subject: 'Mimamori: your free trial ended and monitoring stopped',
      lines: [
        'Your free trial ended without a card, so all monitoring has stopped.',
        'Register a card to be able to monitor again (resume your sites yourself).',
        ...(date ? [`If no card is registered by ${date}, the account will be cancelled.`] : []),
      ],
      action: 'Register a card',
    },
    payment_failed: {
      subject: 'Mimamori: your payment failed',
      lines: [
        'We could not charge your card for the renewal.',
        `Unless the payment goes through by ${date} (reprocess it or update your card), the account will be put on hold and all monitoring will stop.`,
      ],
      action: 'Reprocess or update card',
    },
    account_held: {
      subject: 'Mimamori: your account is on hold',
      lines: [
        'The payment was not completed in time, so your account is on hold and all monitoring has stopped.',
        'Once a reprocess or a card update pays it, the hold is lifted. Resume your sites yourself.',
      ],
      action: 'Reprocess or update card',
    },
    hold_lifted: {
      subject: 'Mimamori: the hold on your account is lifted',
      lines: [
        'Your payment went through, so the hold on your account is lifted.',
        'Your sites are still paused: resume them from the dashboard to start monitoring again.',
      ],
      action: 'Open the dashboard',
    },
    plan_changed: {
      subject: 'Mimamori: your plan has changed',
      lines: [`Your plan is now ${plan}.`, 'Its limits apply from now on.'],
      action: 'View my account',
    },
    plan_change_booked: {
      subject: 'Mimamori: your plan change is booked',
      lines: [
        `From your next renewal on ${date}, your plan will be ${plan}.`,
        'Until then you keep your current plan. You can cancel the booked change on the plan change page.',
      ],
      action: 'Open the plan change page',
    },
    booked_change_cancelled: {
      subject: 'Mimamori: your booked plan change is cancelled',
      lines: ['We cancelled the plan change you had booked.', `You stay on ${plan} after the next renewal.`],
      action: 'View my account',
    },
    cancellation_confirmed: {
      subject: 'Mimamori: your cancellation is confirmed',
      lines: [
        `We received your cancellation. You can keep using Mimamori until ${date}.`,
        'Until then you can undo it from the account page.',
      ],
      action: 'View my account',
    },
    cancellation_undone: {
      subject: 'Mimamori: your cancellation is undone',
      lines: [
        'We received your request to undo the cancellation.',
        date ? `${plan} renews as usual on ${date}.` : `You keep using ${plan} as before.`,
      ],
      action: 'View my account',
    },
    account_deleted: {
      subject: 'Mimamori: your account is deleted',
      lines: [
        'We received your request to delete your account. All monitoring has stopped, you can no longer sign in, and nothing more will be billed.',
        `Your sites, their check and update history, pictures and notification settings will be erased for good on ${date}.`,
        'If you did not ask for this, or want to stop it before then, reply to this mail.',
        'Copies of the receipts (qualified invoices) already issued stay with our payment processor (Stripe) for the period the law requires.',
      ],
    },
    subscribed_again: {
      subject: 'Mimamori: your subscription has started again',
      lines: [
        `Welcome back. You are on ${plan}${price ? ` (${price})` : ''}; the first period is paid.`,
        ...(date
          ? [`It renews automatically on ${date} unless you cancel before then on the account page.`]
          : []),
        'Sites stopped when the subscription ended stay paused; resume them from the dashboard.',
      ],
      action: 'Open the dashboard',
    },
    chat_link_broken: {
      subject: `Mimamori: notifications to ${chatPlatform} have stopped`,
      lines: [
        `Notifications can no longer be sent to ${chatPlatform} “${chatLabel}”: ${chatReason}.`,
        'Nothing more is sent there. Link it again on the account page to resume. This is the only mail about it.',
      ],
      action: 'Link it again',
    },
    workspace_invitation: {
      subject: `Mimamori: you are invited to the workspace “${workspace}”`,
      lines: [
        `${inviter || 'Someone'} invited you to the Mimamori workspace “${workspace}” as ${role}.`,
        'Open the link below, sign in (or sign up) and join. The link works once, for 7 days.',
        'If you did not expect this, ignore this mail.',
      ],
      action: 'Accept the invitation',
    },
    new_device: {
      subject: 'Mimamori: a sign-in from a new device',
      lines: [
        'Someone signed in to your account from a device not used with it before.',
        `Device: ${device}`,
        `Place (IP address): ${address}`,
        `Time: ${date}`,
        'If it was you, there is nothing to do. If not, end that session in the session list, change your password and turn on two-factor sign-in.',
      ],
      action: 'Open the session list',
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
    'chat_link_broken',
    'workspace_invitation',
    'new_device',
    ...Object.keys(BILLING_LINK_PATHS),
  ].includes(kind);
}

/** The mail in the account's language, as plain text and as HTML with the same link. */
export function accountMailContent(
  kind: AccountMailKind,
  lang: string,
  link: string | null,
  supportType = '',
  facts?: BillingFacts,
): { subject: string; text: string; html: string } {
  const language = lang === 'en' ? 'en' : 'ja';
  const { subject, lines, action } = copy(kind, language, supportType, facts);
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
