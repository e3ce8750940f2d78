import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DiscordFront {
  apiBase: string;
  /** The JSON `content` messages posted (the account's link test message). */
  textMessages: string[];
  close(): Promise<void>;
}

/**
 * One DISCORD_API_BASE for the whole cluster: the account service's link test message is a JSON
 * `content` post, which Discord accepts but the notifier's stand-in (multipart only) does not, so
 * JSON posts are answered here and every other call is passed on to the stand-in unchanged.
 */
export async function startDiscordFront(standInBase: string): Promise<DiscordFront> {
  const textMessages: string[] = [];
  const server = createServer(async (request, response) => {
    if (request.headers['content-type'] === 'application/json') {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { content?: string };
      textMessages.push(body.content ?? '');
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: String(textMessages.length), content: body.content }));
      return;
    }
    const target = new URL(request.url ?? '/', standInBase);
    const upstream = forward(target, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiBase: `http://127.0.0.1:${port}`,
    textMessages,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
