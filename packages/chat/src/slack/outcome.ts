import type { ChatMessage, ChatOutcome } from '../port.ts';

type Lang = ChatMessage['lang'];

/**
 * Slack's `ok:false` errors that mean the channel can no longer be posted to until the user acts
 * (docs.slack.dev chat.postMessage errors), each with what the user can do about it.
 */
const DEAD_ERRORS: Record<string, { ja: string; en: string }> = {
  token_revoked: {
    ja: 'Slack アプリが外されたか、許可が取り消されました。もう一度 Slack と連携してください。',
    en: 'The Slack app was removed or its access revoked. Connect Slack again.',
  },
  invalid_auth: {
    ja: 'Slack の許可が無効です。もう一度 Slack と連携してください。',
    en: "Slack no longer accepts the app's access. Connect Slack again.",
  },
  account_inactive: {
    ja: 'Slack のワークスペースかアプリのアカウントが無効になりました。もう一度 Slack と連携してください。',
    en: "The Slack workspace or the app's account was deactivated. Connect Slack again.",
  },
  channel_not_found: {
    ja: 'Slack のチャンネルが見つかりません（削除されたか、非公開になった可能性があります）。別のチャンネルで連携し直してください。',
    en: 'The Slack channel is gone (deleted, or made private). Connect Slack again with another channel.',
  },
  is_archived: {
    ja: 'Slack のチャンネルがアーカイブされました。アーカイブを解除するか、別のチャンネルで連携し直してください。',
    en: 'The Slack channel was archived. Unarchive it, or connect Slack again with another channel.',
  },
  not_in_channel: {
    ja: 'アプリがチャンネルにいません。チャンネルで /invite @Mimamori としてアプリを招待してください。',
    en: 'The app is not in the channel. Invite it there with /invite @Mimamori.',
  },
  missing_scope: {
    ja: 'Slack アプリに必要な権限がありません。もう一度 Slack と連携して、権限を許可してください。',
    en: 'The Slack app lacks a permission it needs. Connect Slack again and allow it.',
  },
};

/** Errors that are Slack's own passing trouble: tried again later. */
const PASSING_ERRORS = new Set([
  'ratelimited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'team_added_to_org',
]);

/** What a Slack Web API `ok:false` error means for the link. */
export function slackErrorOutcome(error: string, lang: Lang): ChatOutcome {
  const dead = DEAD_ERRORS[error];
  if (dead) return { kind: 'dead', reason: `${dead[lang]} (${error})` };
  if (PASSING_ERRORS.has(error)) return { kind: 'retry', afterMs: null, reason: `Slack: ${error}` };
  return { kind: 'refused', reason: `Slack: ${error}` };
}

export function isDeadSlackError(error: string): boolean {
  return error in DEAD_ERRORS;
}
