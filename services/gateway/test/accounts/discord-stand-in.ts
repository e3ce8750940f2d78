import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DiscordPost {
  path: string;
  query: string;
  body: { content?: unknown; username?: unknown };
}

/**
 * Plays Discord's webhook endpoint on loopback: POST /api/webhooks/<id>/<token> with JSON
 * `content` answers 200 (with ?wait=true) for a known webhook, 404 Unknown Webhook otherwise.
 */
export async function startDiscordStandIn(knownTokens: Set<string>) {
  const posts: DiscordPost[] = [];
  const server = createServer(async (request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://discord.test');
    const match = /^\/api\/webhooks\/(\d+)\/([\w-]+)$/.exec(url.pathname);
    let body: DiscordPost['body'] = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as DiscordPost['body'];
    } catch {
      body = {};
    }
    posts.push({ path: url.pathname, query: url.search, body });
    const valid =
      request.method === 'POST' &&
      request.headers['content-type'] === 'application/json' &&
      match?.[2] !== undefined &&
      knownTokens.has(match[2]) &&
      typeof body.content === 'string' &&
      body.content.length > 0 &&
      body.content.length <= 2000;
    response.writeHead(valid ? 200 : 404, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(
        valid ? { id: '1', content: body.content } : { message: 'Unknown Webhook', code: 10015 },
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiBase: `http://127.0.0.1:${port}`,
    posts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
