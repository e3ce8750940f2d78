/**
 * Which pasted URLs are a Teams Workflows trigger (the "Send webhook alerts to a channel"
 * template): https on `<env>.environment.api.powerplatform.com`, path
 * `/powerautomate/automations/direct/workflows/<id>/…`, signed by its `sig` parameter. Nothing else
 * is posted to: the URL is user input, and this exact host suffix is the SSRF allowlist
 * (../shared/references/channels.md §2, §6).
 */
const WORKFLOWS_HOST =
  /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.environment\.api\.powerplatform\.com$/;
const WORKFLOWS_PATH = /^\/powerautomate\/automations\/direct\/workflows\/([A-Za-z0-9_-]+)\//;

export type WorkflowUrlCheck = { ok: true; url: URL; workflowId: string } | { ok: false; reason: string };

export function checkWorkflowUrl(input: string): WorkflowUrlCheck {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { ok: false, reason: 'This is not a URL. Paste the URL the Teams Workflows flow shows.' };
  }
  const host = url.hostname.toLowerCase();
  if (
    host.endsWith('.webhook.office.com') ||
    host === 'outlook.office.com' ||
    host === 'outlook.office365.com'
  ) {
    return {
      ok: false,
      reason:
        'This is an Office 365 connector (Incoming Webhook) URL; Microsoft retired those connectors. ' +
        'In the channel, open Workflows, use "Send webhook alerts to a channel" and paste its URL.',
    };
  }
  if (host.endsWith('.logic.azure.com')) {
    return {
      ok: false,
      reason:
        'This is an old Workflows URL on logic.azure.com; those stopped working on 2025-11-30. ' +
        'Open the flow in Teams Workflows and copy its current URL (on environment.api.powerplatform.com).',
    };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'The Workflows URL must start with https://.' };
  const path = WORKFLOWS_PATH.exec(url.pathname);
  if (!WORKFLOWS_HOST.test(host) || (url.port !== '' && url.port !== '443') || !path?.[1]) {
    return {
      ok: false,
      reason:
        'This is not a Teams Workflows URL (https://….environment.api.powerplatform.com/powerautomate/automations/direct/workflows/…).',
    };
  }
  if (url.username || url.password)
    return { ok: false, reason: 'The Workflows URL must not carry a user name.' };
  if (!url.searchParams.get('sig')) {
    return {
      ok: false,
      reason:
        'The URL has no sig= signature: set the flow\'s trigger "Who can trigger the flow?" to "Anyone" and copy the URL again.',
    };
  }
  return { ok: true, url, workflowId: path[1] };
}

/**
 * Where a checked URL is posted: as pasted, or with `apiBase` in place of its origin when the
 * run sends Teams to the stand-in.
 */
export function postingUrl(url: URL, apiBase: string | undefined): string {
  if (!apiBase) return url.toString();
  return `${apiBase.replace(/\/+$/, '')}${url.pathname}${url.search}`;
}
