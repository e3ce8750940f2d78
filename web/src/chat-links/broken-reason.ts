/** Why a link broke, in words: the adapters' reasons end in what happened on the platform's side. */
export function brokenReasonKey(reason: string) {
  // What the user can undo on the platform's side before linking again.
  if (reason === 'slack_not_in_channel') return 'chatLinks.reasons.slackNotInChannel' as const;
  if (reason === 'slack_is_archived') return 'chatLinks.reasons.slackArchived' as const;
  if (reason === 'teams_workflow_turned_off') return 'chatLinks.reasons.teamsFlowOff' as const;
  if (/token_revoked|token_invalid|revoked|uninstalled/.test(reason))
    return 'chatLinks.reasons.revoked' as const;
  if (/blocked|unfollow|left|removed|gone|not_found/.test(reason)) return 'chatLinks.reasons.gone' as const;
  return 'chatLinks.reasons.other' as const;
}
