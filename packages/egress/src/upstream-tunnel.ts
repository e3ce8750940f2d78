import { request } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A CONNECT tunnel through an upstream proxy (trusted configuration) to an address the guard
 * has checked. The proxy is only ever given that address, never a name it would resolve again
 * (a DNS-rebinding window); the request inside the tunnel still names the host, and TLS on top
 * of it names the host for SNI and the certificate. Plain http goes through a tunnel too, so
 * the Host header reaches the site as the page gave it.
 */
export function tunnelThroughUpstream(
  upstream: URL,
  target: { address: string; port: number; timeoutMs: number },
): Promise<Socket> {
  const authority = `${target.address.includes(':') ? `[${target.address}]` : target.address}:${target.port}`;
  return new Promise((resolve, reject) => {
    const ask = request({
      method: 'CONNECT',
      host: upstream.hostname,
      port: Number(upstream.port) || 80,
      path: authority,
      headers: { host: authority, ...upstreamAuthorization(upstream) },
      timeout: target.timeoutMs,
    });
    ask.once('connect', (answer, socket, rest) => {
      if (answer.statusCode !== 200) {
        socket.destroy();
        reject(new Error(`the upstream proxy answered ${answer.statusCode} to a tunnel`));
        return;
      }
      if (rest.length > 0) socket.unshift(rest);
      resolve(socket);
    });
    ask.once('timeout', () => ask.destroy(new Error('the upstream proxy did not answer in time')));
    ask.once('error', reject);
    ask.end();
  });
}

function upstreamAuthorization(upstream: URL): Record<string, string> {
  if (!upstream.username) return {};
  const credentials = `${decodeURIComponent(upstream.username)}:${decodeURIComponent(upstream.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(credentials).toString('base64')}` };
}
