import type { ChatOutcome } from '../port.ts';

/**
 * Slack's `ok:false` errors that mean the channel can no longer be posted to until the user acts
 * (docs.slack.dev chat.postMessage errors). The link breaks with `slack_<error>`, which the account
 * page and the owner's mail put in words (docs/channels.md#slack): link again, unarchive, or
 * invite the app back (`not_in_channel`).
 */
const DEAD_ERRORS = new Set([
  'token_revoked',
  'invalid_auth',
  'account_inactive',
  'channel_not_found',
  'is_archived',
  'not_in_channel',
  'missing_scope',
]);

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
export function slackErrorOutcome(error: string): ChatOutcome {
  if (DEAD_ERRORS.has(error)) return { kind: 'dead', reason: `slack_${error}` };
  if (PASSING_ERRORS.has(error)) return { kind: 'retry', afterMs: null, reason: `slack ${error}` };
  return { kind: 'refused', reason: `slack ${error}` };
}
