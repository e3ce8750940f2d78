import type { DiscordMessage } from '../domain/discord-message.ts';

/** What came of one execute-webhook call. */
export type DiscordOutcome =
  | { kind: 'sent' }
  /** Try again later: 429 (after Discord's retry_after), 5xx or no answer. */
  | { kind: 'retry'; afterMs: number | null; reason: string }
  /** Discord refused the message for good (deleted webhook, bad request): retrying cannot help. */
  | { kind: 'refused'; reason: string };

const WEBHOOK_PATH = /^\/api(?:\/v\d{1,2})?\/webhooks\/(\d{1,30})\/([A-Za-z0-9_-]{1,200})\/?$/;
const DISCORD_HOSTS = new Set(['discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com']);

/**
 * The address to post to: the stored webhook's id and token on `apiBase` (Discord itself, or a
 * stand-in in tests). A stored URL that is not a Discord webhook gives null and is never posted to.
 */
export function executeUrl(storedUrl: string, apiBase: string): string | null {
  let url: URL;
  try {
    url = new URL(storedUrl);
  } catch {
    return null;
  }
  const match = WEBHOOK_PATH.exec(url.pathname);
  if (url.protocol !== 'https:' || !DISCORD_HOSTS.has(url.hostname) || !match) return null;
  return `${apiBase.replace(/\/$/, '')}/api/webhooks/${match[1]}/${match[2]}?wait=true`;
}

/**
 * Executes the webhook the way Discord documents it for files: multipart/form-data with the
 * JSON in `payload_json` and each file in `files[n]`. The URL is a secret and never appears in
 * what this returns.
 */
export async function postDiscordMessage(url: string, message: DiscordMessage): Promise<DiscordOutcome> {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(message.payload));
  message.files.forEach((file, index) => {
    form.append(
      `files[${index}]`,
      new Blob([new Uint8Array(file.data)], { type: file.contentType }),
      file.filename,
    );
  });
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      body: form,
      redirect: 'error',
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    return { kind: 'retry', afterMs: null, reason: (error as Error).name || 'network error' };
  }
  const body = await response.text().catch(() => '');
  if (response.ok) return { kind: 'sent' };
  if (response.status === 429) return { kind: 'retry', afterMs: retryAfterMs(response, body), reason: '429' };
  if (response.status >= 500) return { kind: 'retry', afterMs: null, reason: String(response.status) };
  return { kind: 'refused', reason: String(response.status) };
}

/** Discord's body says `retry_after` in seconds (fractions allowed); the header is the fallback. */
function retryAfterMs(response: Response, body: string): number | null {
  try {
    const seconds = Number((JSON.parse(body) as { retry_after?: unknown }).retry_after);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  } catch {
    // Not JSON: the header may still say.
  }
  const header = Number(response.headers.get('retry-after'));
  return Number.isFinite(header) && header >= 0 ? Math.ceil(header * 1000) : null;
}
