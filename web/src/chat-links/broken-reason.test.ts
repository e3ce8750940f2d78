import { describe, expect, it } from 'vitest';
import { brokenReasonKey } from './broken-reason.ts';

describe('why a chat link broke, in words', () => {
  it.each([
    // Slack's and Teams' adapters name these; the user can undo them on the platform's side.
    ['slack_not_in_channel', 'chatLinks.reasons.slackNotInChannel'],
    ['slack_is_archived', 'chatLinks.reasons.slackArchived'],
    ['teams_workflow_turned_off', 'chatLinks.reasons.teamsFlowOff'],
    ['slack_token_revoked', 'chatLinks.reasons.revoked'],
    ['slack_app_uninstalled', 'chatLinks.reasons.revoked'],
    ['slack_tokens_revoked', 'chatLinks.reasons.revoked'],
    ['slack_channel_not_found', 'chatLinks.reasons.gone'],
    ['teams_workflow_gone', 'chatLinks.reasons.gone'],
    ['teams_workflow_refused_403', 'chatLinks.reasons.other'],
    ['chatwork_token_revoked', 'chatLinks.reasons.revoked'],
  ])('%s reads as %s', (reason, key) => {
    expect(brokenReasonKey(reason)).toBe(key);
  });
});
