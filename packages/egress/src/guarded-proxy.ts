import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createEgressGuard, type EgressGuard, type EgressOptions } from './egress-guard.ts';
import { RefusedAddressError } from './refused-address-error.ts';

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
  guard.checkUrl(target).then(
    ({ address }) => {
      const headers = { ...incoming.headers };
      for (const name of HOP_BY_HOP) delete headers[name];
      headers.host = target.host;
      const outgoing = request({
        method: incoming.method,
        headers: { ...headers, ...upstreamAuthorization(upstream) },
        ...(upstream
          ? { host: upstream.hostname, port: Number(upstream.port) || 80, path: target.href }
          : {
              host: address,
              port: Number(target.port) || 80,
              path: `${target.pathname}${target.search}`,
            }),
      });
      outgoing.on('response', (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      outgoing.on('error', (error) => answerFailure(response, error));
      incoming.pipe(outgoing);
    },
    (error: Error) => answerFailure(response, error),
  );
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
  guard.check(hostname, port).then(
    ({ address }) => {
      const established = (server: Socket, rest: Buffer) => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (rest.length > 0) client.write(rest);
        if (head.length > 0) server.write(head);
        server.pipe(client);
        client.pipe(server);
        server.on('error', () => client.destroy());
        client.on('close', () => server.destroy());
      };
      if (!upstream) {
        const server = connect(port, address, () => established(server, Buffer.alloc(0)));
        server.on('error', (error) => refuseTunnel(client, error));
        return;
      }
      const ask = request({
        method: 'CONNECT',
        host: upstream.hostname,
        port: Number(upstream.port) || 80,
        path: `${hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`,
        headers: upstreamAuthorization(upstream),
      });
      ask.on('connect', (answer, server, rest) => {
        if (answer.statusCode !== 200) {
          server.destroy();
          refuseTunnel(client, new Error(`upstream proxy answered ${answer.statusCode}`));
          return;
        }
        established(server, rest);
      });
      ask.on('error', (error) => refuseTunnel(client, error));
      ask.end();
    },
    (error: Error) => refuseTunnel(client, error),
  );
}

function splitHostPort(authority: string): [string, string] {
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(authority);
  if (bracketed) return [bracketed[1] ?? '', bracketed[2] ?? ''];
  const at = authority.lastIndexOf(':');
  return at < 0 ? [authority, '443'] : [authority.slice(0, at), authority.slice(at + 1)];
}

function upstreamAuthorization(upstream: URL | undefined): Record<string, string> {
  if (!upstream?.username) return {};
  const credentials = `${decodeURIComponent(upstream.username)}:${decodeURIComponent(upstream.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
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
