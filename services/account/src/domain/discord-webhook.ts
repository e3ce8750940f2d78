/**
 * A Discord webhook URL as Discord hands it out:
 * https://discord.com/api/webhooks/<id>/<token> (also discordapp.com, ptb. and canary.,
 * optionally with an API version). Anything else is refused, so the service never posts to an
 * address the user picked.
 */
const HOSTS = new Set([
  'discord.com',
  'discordapp.com',
  'ptb.discord.com',
  'canary.discord.com',
  'ptb.discordapp.com',
  'canary.discordapp.com',
]);
const PATH = /^\/api(?:\/v\d{1,2})?\/webhooks\/(\d{15,25})\/([A-Za-z0-9_-]{40,100})\/?$/;

export interface DiscordWebhook {
  id: string;
  token: string;
}

export function parseDiscordWebhook(input: string): DiscordWebhook | null {
  if (input.length > 300) return null;
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port || url.search || url.hash)
    return null;
  if (!HOSTS.has(url.hostname)) return null;
  const match = PATH.exec(url.pathname);
  if (!match?.[1] || !match[2]) return null;
  return { id: match[1], token: match[2] };
}

/** The canonical URL stored and posted to, on `apiBase` (Discord itself, or a stand-in in tests). */
export function webhookUrl(webhook: DiscordWebhook, apiBase: string): string {
  return `${apiBase.replace(/\/$/, '')}/api/webhooks/${webhook.id}/${webhook.token}`;
}
