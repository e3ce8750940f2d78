import type { ChatAdapter, ChatMessage, ChatOutcome } from '../port.ts';
import { retryAfterMs } from '../retry-after.ts';
import { teamsPayload } from './card.ts';
import { checkWorkflowUrl, postingUrl } from './workflow-url.ts';

const TIMEOUT_MS = 10_000;

/**
 * Microsoft Teams through a Workflows flow's webhook trigger, which the user creates in the
 * channel and pastes (../shared/references/channels.md §2). The trigger answers 202 and runs the
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
      return teamsOutcome(response.status, response.headers.get('retry-after'), text, message.lang);
    },
  };
}

/** What the trigger's answer means for the link. */
export function teamsOutcome(
  status: number,
  retryAfter: string | null,
  body: string,
  lang: ChatMessage['lang'],
): ChatOutcome {
  const ja = lang === 'ja';
  if (status >= 200 && status < 300) return { kind: 'sent' };
  if (status === 429) return { kind: 'retry', afterMs: retryAfterMs(retryAfter), reason: 'Teams rate limit' };
  if (status >= 500) return { kind: 'retry', afterMs: null, reason: `Teams answered ${status}` };
  if (body.includes('WorkflowTriggerIsNotEnabled')) {
    return {
      kind: 'dead',
      reason: ja
        ? 'Teams のワークフローがオフになっています。Workflows でフローをオンにしてから、テスト送信してください。(WorkflowTriggerIsNotEnabled)'
        : 'The Teams workflow is turned off. Turn the flow on in Workflows, then send a test. (WorkflowTriggerIsNotEnabled)',
    };
  }
  if (status === 404 || status === 410) {
    return {
      kind: 'dead',
      reason: ja
        ? `Teams のワークフローが見つかりません（削除された可能性があります）。新しいフローの URL で連携し直してください。(${status})`
        : `The Teams workflow is gone (deleted?). Link again with a new flow's URL. (${status})`,
    };
  }
  // Too large is this message's fault, not the channel's: the card is sized below the limit, so
  // this would be a change of Teams' limit, told to us, not to the user as a broken link.
  if (status === 413) return { kind: 'refused', reason: 'Teams: Request Entity Too Large (413)' };
  return {
    kind: 'dead',
    reason: ja
      ? `Teams のワークフローが投稿を受け付けません。フローの URL と設定を確かめて、連携し直してください。(${status})`
      : `The Teams workflow refuses posts. Check the flow's URL and settings, and link again. (${status})`,
  };
}
