import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReplayResponse {
  status?: number;
  contentType?: string;
  headers?: Record<string, string>;
  body: string | Buffer;
}

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

export interface ReplayServer {
  url: string;
  /** Every request received, in order. */
  requests: SeenRequest[];
  /** What the server answers from now on; a path it does not know answers 404. */
  answer(route: (request: SeenRequest) => ReplayResponse | undefined): void;
  close(): Promise<void>;
}

/** A fixture file of this test folder, as recorded bytes. */
export function fixture(name: string): Buffer {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
}

/** A local HTTP server replaying a source's recorded answers, so no test reaches the internet. */
export async function startReplayServer(
  route: (request: SeenRequest) => ReplayResponse | undefined,
): Promise<ReplayServer> {
  let current = route;
  const requests: SeenRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? '/', 'http://replay.test');
    const seen = {
      method: incoming.method ?? '',
      path: url.pathname,
      query: url.searchParams,
      headers: incoming.headers,
    };
    requests.push(seen);
    const response = current(seen);
    if (!response) {
      outgoing.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>');
      return;
    }
    outgoing.writeHead(response.status ?? 200, {
      'content-type': response.contentType ?? 'application/octet-stream',
      ...response.headers,
    });
    outgoing.end(response.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answer(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
