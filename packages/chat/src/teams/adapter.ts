import type { ChatAdapter, ChatOutcome } from '../port.ts';
import { retryAfterMs } from '../retry-after.ts';
import { teamsPayload } from './card.ts';
import { checkWorkflowUrl, postingUrl } from './workflow-url.ts';

const TIMEOUT_MS = 10_000;

/**
 * Microsoft Teams through a Workflows flow's webhook trigger, which the user creates in the
 * channel and pastes (docs/channels.md#microsoft-teams). The trigger answers 202 and runs the
 * flow later, so a card that fails inside the flow is not seen here; what is seen is the trigger
 * itself refusing: turned off (`WorkflowTriggerIsNotEnabled`), deleted (404/410), or any other
 * 4xx but 429, which ends the link until the user pastes a working URL.
 */
export function teamsAdapter(): ChatAdapter {
  return {
    platform: 'teams',
    // No product-wide secret: each link carries its own signed URL; on wherever settings name Teams.
    enabled: (settings) => Boolean(settings.teams),
    linking: {
      kind: 'fields',
      fields: [{ name: 'url', secret: true }],
      async validate(input) {
        const checked = checkWorkflowUrl(input.url ?? '');
        if (!checked.ok) return { ok: false, field: 'url', reason: checked.reason };
        return {
          ok: true,
          credentials: { url: checked.url.toString() },
          label: `Teams Workflows …${checked.workflowId.slice(-6)}`,
        };
      },
    },
    async send(destination, message, settings) {
      const checked = checkWorkflowUrl(destination.credentials.url ?? '');
      // A stored URL is checked again: it is posted to, and only Workflows' host may be.
      if (!checked.ok) return { kind: 'dead', reason: checked.reason };
      let response: Response;
      try {
        response = await fetch(postingUrl(checked.url, settings.teams?.apiBase), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(teamsPayload(message)),
          // A redirect is an answer, never followed: it could lead off the allowed host.
          redirect: 'manual',
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        return {
          kind: 'retry',
          afterMs: null,
          reason: `Teams: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
      const text = await response.text().catch(() => '');
      return teamsOutcome(response.status, response.headers.get('retry-after'), text);
    },
  };
}

/**
 * What the trigger's answer means for the link. A broken link's reason is a code the account page
 * and the owner's mail put in words: the flow turned off (turn it on), gone (make a new one), or
 * refusing for another reason (check it and link again).
 */
export function teamsOutcome(status: number, retryAfter: string | null, body: string): ChatOutcome {
  if (status >= 200 && status < 300) return { kind: 'sent' };
  if (status === 429) return { kind: 'retry', afterMs: retryAfterMs(retryAfter), reason: 'teams 429' };
  if (status >= 500) return { kind: 'retry', afterMs: null, reason: `teams ${status}` };
  if (body.includes('WorkflowTriggerIsNotEnabled'))
    return { kind: 'dead', reason: 'teams_workflow_turned_off' };
  if (status === 404 || status === 410) return { kind: 'dead', reason: 'teams_workflow_gone' };
  // Too large is this message's fault, not the channel's: the card is sized below the limit, so
  // a 413 says Teams' limit changed, which relinking would not fix.
  if (status === 413) return { kind: 'refused', reason: 'teams 413 Request Entity Too Large' };
  return { kind: 'dead', reason: `teams_workflow_refused_${status}` };
}
