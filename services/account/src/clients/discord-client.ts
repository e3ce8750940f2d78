/**
 * Posts a message to a Discord webhook the way Discord documents it (JSON `content`,
 * `?wait=true` so a bad webhook answers with an error instead of 204).
 */
export async function postDiscordMessage(url: string, content: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}?wait=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content, username: 'Mimamori', allowed_mentions: { parse: [] } }),
      redirect: 'error',
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
