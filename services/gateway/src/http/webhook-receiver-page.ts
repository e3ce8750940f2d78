import { escapeHtml } from '@mimamori/mail';
import type { Verification } from '@mimamori/webhook';

/** One delivery as the local receiver kept it, with its signature checked when a secret is known. */
export interface ReceivedDelivery {
  id: number;
  at: string;
  /** The receiver it came to (`/dev/webhooks/in/<name>`). */
  name: string;
  headers: Record<string, string>;
  body: string;
  /** null: no secret pasted for this receiver yet. */
  check: Verification | null;
}

export interface WebhookReceiverPage {
  receiverUrl: (name: string) => string;
  suggested: string;
  /** Receivers to offer a secret field for: the suggested one, those with a secret, those that received. */
  names: readonly string[];
  withSecret: ReadonlySet<string>;
  /** Newest first. */
  deliveries: readonly ReceivedDelivery[];
  csrf: string;
  basePath: string;
}

const VERDICTS: Record<string, { text: string; colour: string }> = {
  ok: { text: 'Signature checked: valid', colour: '#0f766e' },
  signature: { text: 'Signature checked: does NOT match the secret', colour: '#b42318' },
  stale: { text: 'Signature checked: its time is more than 5 minutes off (a replay?)', colour: '#b42318' },
  malformed: { text: 'No valid Mimamori-Signature header', colour: '#b42318' },
  none: { text: 'Signature not checked: paste this receiver’s signing secret above', colour: '#8a6d00' },
};

/**
 * The local webhook receiver's page: its URLs, a field per receiver for the signing secret shown
 * once when the webhook was added, and each delivery newest first with its headers, its body and
 * whether its signature verifies with that secret.
 */
export function renderWebhookReceiverPage(page: WebhookReceiverPage): string {
  const secretForms = page.names
    .map(
      (name) => `<form method="post" action="${page.basePath}/secret" style="margin:8px 0">
<input type="hidden" name="csrf" value="${escapeHtml(page.csrf)}"><input type="hidden" name="name" value="${escapeHtml(name)}">
<label>Signing secret for <code>${escapeHtml(page.receiverUrl(name))}</code>
<input name="secret" type="password" autocomplete="off" placeholder="${page.withSecret.has(name) ? 'kept; paste to replace, empty to forget' : 'whsec_…'}" style="width:22em"></label>
<button type="submit">Keep</button>${page.withSecret.has(name) ? ' <span style="color:#0f766e">secret kept</span>' : ''}
</form>`,
    )
    .join('\n');
  const deliveries =
    page.deliveries.length === 0
      ? '<p>No delivery yet. Add a webhook with the URL above and press <em>Send a test</em>.</p>'
      : page.deliveries.map(deliveryHtml).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Webhook receiver (local)</title>
<meta name="viewport" content="width=device-width,initial-scale=1"></head>
<body style="margin:0;font-family:sans-serif;color:#1f2933;background:#f7f8f9">
<main style="max-width:820px;margin:0 auto;padding:16px">
<h1 style="font-size:20px">Webhook receiver (local)</h1>
<p>Add a webhook on the account screen (or a site's page) with this URL:
<code data-testid="receiver-url">${escapeHtml(page.receiverUrl(page.suggested))}</code>.
Any name of letters, digits, <code>-</code> and <code>_</code> after <code>/in/</code> is a receiver of its own.
Only these URLs of this machine are accepted as webhooks, and only while Mimamori listens on this machine alone.</p>
<p>Paste the signing secret Mimamori showed when you added the webhook: each delivery below is then
checked with it, as your own server would check it (docs/webhooks.md). The secret is kept in the
data folder, as a receiver keeps it.</p>
${secretForms}
<h2 style="font-size:17px">Deliveries</h2>
${deliveries}
</main></body></html>`;
}

function deliveryHtml(delivery: ReceivedDelivery): string {
  const verdict =
    VERDICTS[delivery.check === null ? 'none' : delivery.check.ok ? 'ok' : delivery.check.reason];
  let body = delivery.body;
  try {
    body = JSON.stringify(JSON.parse(delivery.body), null, 2);
  } catch {
    // Not JSON: shown as received.
  }
  const headers = Object.entries(delivery.headers)
    .map(([name, value]) => `${escapeHtml(name)}: ${escapeHtml(value)}`)
    .join('\n');
  return `<article class="delivery" data-verdict="${delivery.check === null ? 'none' : delivery.check.ok ? 'ok' : delivery.check.reason}" style="margin:12px 0;padding:12px;background:#fff;border-left:4px solid ${verdict?.colour};border-radius:4px">
<div><strong>${escapeHtml(delivery.name)}</strong> <span style="color:#52606d;font-size:13px">${escapeHtml(delivery.at)} · #${delivery.id}</span></div>
<p style="margin:6px 0;color:${verdict?.colour};font-weight:bold">${escapeHtml(verdict?.text ?? '')}</p>
<pre style="white-space:pre-wrap;font-size:12px;color:#52606d">${headers}</pre>
<pre style="white-space:pre-wrap;font-size:13px;background:#f0f2f4;padding:8px">${escapeHtml(body)}</pre>
</article>`;
}
