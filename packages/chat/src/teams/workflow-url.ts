/**
 * Which pasted URLs are a Teams Workflows trigger (the "Send webhook alerts to a channel"
 * template): https on `<env>.environment.api.powerplatform.com`, path
 * `/powerautomate/automations/direct/workflows/<id>/…`, signed by its `sig` parameter. Nothing else
 * is posted to: the URL is user input, and this exact host suffix is the SSRF allowlist
 * (docs/channels.md#microsoft-teams).
 */
const WORKFLOWS_HOST =
  /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.environment\.api\.powerplatform\.com$/;
const WORKFLOWS_PATH = /^\/powerautomate\/automations\/direct\/workflows\/([A-Za-z0-9_-]+)\//;

/**
 * Why a pasted URL is refused, as the codes the link form shows in the reader's language
 * (`errors.<code>` in web/src/i18n): a retired connector or Logic Apps URL says so and what to
 * paste instead.
 */
export type WorkflowUrlRefusal =
  | 'teams_url_invalid'
  | 'teams_url_connector_retired'
  | 'teams_url_logic_apps_retired'
  | 'teams_url_not_https'
  | 'teams_url_not_workflows'
  | 'teams_url_has_user'
  | 'teams_url_no_signature';

export type WorkflowUrlCheck =
  | { ok: true; url: URL; workflowId: string }
  | { ok: false; reason: WorkflowUrlRefusal };

export function checkWorkflowUrl(input: string): WorkflowUrlCheck {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { ok: false, reason: 'teams_url_invalid' };
  }
  const host = url.hostname.toLowerCase();
  // Office 365 connectors ("Incoming Webhook"): retired by Microsoft.
  if (
    host.endsWith('.webhook.office.com') ||
    host === 'outlook.office.com' ||
    host === 'outlook.office365.com'
  ) {
    return { ok: false, reason: 'teams_url_connector_retired' };
  }
  // Workflows' first URLs: they stopped working on 2025-11-30.
  if (host.endsWith('.logic.azure.com')) return { ok: false, reason: 'teams_url_logic_apps_retired' };
  if (url.protocol !== 'https:') return { ok: false, reason: 'teams_url_not_https' };
  const path = WORKFLOWS_PATH.exec(url.pathname);
  if (!WORKFLOWS_HOST.test(host) || (url.port !== '' && url.port !== '443') || !path?.[1]) {
    return { ok: false, reason: 'teams_url_not_workflows' };
  }
  if (url.username || url.password) return { ok: false, reason: 'teams_url_has_user' };
  // Without `sig` the trigger is not open to "Anyone" and wants Entra sign-in, which the product has not.
  if (!url.searchParams.get('sig')) return { ok: false, reason: 'teams_url_no_signature' };
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
