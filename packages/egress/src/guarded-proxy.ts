import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createEgressGuard, type EgressGuard, type EgressOptions } from './egress-guard.ts';
import { RefusedAddressError } from './refused-address-error.ts';
import { tunnelThroughUpstream } from './upstream-tunnel.ts';

export interface GuardedProxyOptions extends EgressOptions {
  /** An upstream proxy (http://user:pass@host:port) that carries the checked requests onward. */
  upstreamProxy?: string;
}

export interface GuardedProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's `--proxy-server`. */
  url: string;
  close(): Promise<void>;
}

// Hop-by-hop headers belong to the connection to this proxy, not to the next one.
const HOP_BY_HOP = [
  'proxy-connection',
  'proxy-authorization',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
];

/**
 * A forward proxy on loopback (CONNECT for https, absolute-URL requests for http) that applies
 * the egress guard to every request the browser makes, sub-resources and redirects included,
 * and connects to the address it checked. Refusals answer 403 with the reason in
 * `x-refused-address`, so the browser half can tell a refused request from a failed one.
 */
export async function startGuardedProxy(options: GuardedProxyOptions = {}): Promise<GuardedProxy> {
  const guard = createEgressGuard(options);
  const upstream = options.upstreamProxy ? new URL(options.upstreamProxy) : undefined;
  const sockets = new Set<Socket | Duplex>();
  const server = createServer((incoming, response) => {
    forwardRequest(guard, upstream, incoming, response);
  });
  server.on('connect', (incoming: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    tunnel(guard, upstream, incoming, client, head);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function forwardRequest(
  guard: EgressGuard,
  upstream: URL | undefined,
  incoming: IncomingMessage,
  response: ServerResponse,
): void {
  let target: URL;
  try {
    target = new URL(incoming.url ?? '');
  } catch {
    response.writeHead(400).end('absolute URL expected');
    return;
  }
  const port = Number(target.port) || 80;
  guard
    .checkUrl(target)
    .then(async ({ address }) => {
      const headers = { ...incoming.headers };
      for (const name of HOP_BY_HOP) delete headers[name];
      headers.host = target.host;
      // Through an upstream proxy the request rides a tunnel to the checked address.
      const socket = upstream
        ? await tunnelThroughUpstream(upstream, { address, port, timeoutMs: UPSTREAM_TIMEOUT_MS })
        : undefined;
      const outgoing = request({
        method: incoming.method,
        headers,
        host: address,
        port,
        path: `${target.pathname}${target.search}`,
        ...(socket ? { createConnection: () => socket } : {}),
      });
      outgoing.on('response', (answer) => {
        const redirect = forbiddenRedirect(answer.statusCode ?? 0, answer.headers.location, target);
        if (redirect) {
          answer.resume();
          answerFailure(response, redirect);
          return;
        }
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      outgoing.on('error', (error) => answerFailure(response, error));
      incoming.pipe(outgoing);
    })
    .catch((error: Error) => answerFailure(response, error));
}

function tunnel(
  guard: EgressGuard,
  upstream: URL | undefined,
  incoming: IncomingMessage,
  client: Duplex,
  head: Buffer,
): void {
  const [hostname = '', portText = '443'] = splitHostPort(incoming.url ?? '');
  const port = Number(portText);
  guard
    .check(hostname, port)
    .then(async ({ address }) => {
      const server = upstream
        ? await tunnelThroughUpstream(upstream, { address, port, timeoutMs: UPSTREAM_TIMEOUT_MS })
        : await new Promise<Socket>((resolve, reject) => {
            const direct = connect(port, address, () => resolve(direct));
            direct.once('error', reject);
          });
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) server.write(head);
      server.pipe(client);
      client.pipe(server);
      server.on('error', () => client.destroy());
      client.on('close', () => server.destroy());
    })
    .catch((error: Error) => refuseTunnel(client, error));
}

const UPSTREAM_TIMEOUT_MS = 10_000;

/**
 * A redirect to a scheme other than http and https (file:, data:, ftp:, javascript: …) becomes
 * this proxy's own refusal: Chromium would otherwise end it as a generic unsafe redirect, which
 * cannot be told from a broken site.
 */
function forbiddenRedirect(
  status: number,
  location: string | undefined,
  from: URL,
): RefusedAddressError | null {
  if (status < 300 || status >= 400 || !location) return null;
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return null;
  }
  if (next.protocol === 'http:' || next.protocol === 'https:') return null;
  return new RefusedAddressError(
    `refused a redirect to a ${next.protocol} URL: only http and https are fetched`,
  );
}

function splitHostPort(authority: string): [string, string] {
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(authority);
  if (bracketed) return [bracketed[1] ?? '', bracketed[2] ?? ''];
  const at = authority.lastIndexOf(':');
  return at < 0 ? [authority, '443'] : [authority.slice(0, at), authority.slice(at + 1)];
}

function answerFailure(response: ServerResponse, error: Error): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  if (error instanceof RefusedAddressError) {
    response.writeHead(403, { 'x-refused-address': error.message }).end(error.message);
  } else {
    response.writeHead(502).end('could not reach the site');
  }
}

function refuseTunnel(client: Duplex, error: Error): void {
  const status =
    error instanceof RefusedAddressError
      ? `403 Forbidden\r\nx-refused-address: ${error.message.replace(/[\r\n]/g, ' ')}`
      : '502 Bad Gateway';
  client.end(`HTTP/1.1 ${status}\r\n\r\n`);
}
