import { connect as connectTls } from 'node:tls';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { canonicalHost, createEgressGuard, type EgressOptions } from './egress-guard.ts';
import { RefusedAddressError } from './refused-address-error.ts';
import { tunnelThroughUpstream } from './upstream-tunnel.ts';

export interface GuardedDispatcherOptions extends EgressOptions {
  /**
   * An upstream proxy (http://user:pass@host:port) from the configured pool. Its own address is
   * trusted configuration; it is asked for a tunnel to the address the guard checked, never
   * for a name it would resolve again.
   */
  upstreamProxy?: string;
  /** Connect timeout per connection. */
  connectTimeoutMs?: number;
}

/**
 * An undici dispatcher every crawler request goes through. Each new connection resolves the
 * host, checks every address and connects to the checked one (TLS still names the host for
 * SNI and the certificate), so a DNS answer cannot change between check and connect. With an
 * upstream proxy the same holds: the proxy gets `CONNECT <checked address>:<port>` and the
 * request inside the tunnel names the host, so the proxy never resolves the name itself.
 * Redirects are not followed here: callers follow them hop by hop through this same
 * dispatcher, so each hop is checked.
 */
export function createGuardedDispatcher(options: GuardedDispatcherOptions = {}): Dispatcher {
  const guard = createEgressGuard(options);
  const timeout = options.connectTimeoutMs ?? 10_000;
  const upstream = options.upstreamProxy ? new URL(options.upstreamProxy) : undefined;
  const connectDirectly = buildConnector({ timeout });
  return new Agent({
    connect(connectOptions, callback) {
      const port = Number(connectOptions.port) || (connectOptions.protocol === 'https:' ? 443 : 80);
      if (connectOptions.protocol !== 'http:' && connectOptions.protocol !== 'https:') {
        callback(new RefusedAddressError(`refused ${connectOptions.protocol} URL`), null);
        return;
      }
      const hostname = canonicalHost(connectOptions.hostname);
      guard.check(hostname, port).then(
        ({ address }) => {
          const servername = address === hostname ? connectOptions.servername : hostname;
          if (upstream) {
            tunnelThroughUpstream(upstream, { address, port, timeoutMs: timeout }).then(
              (socket) => {
                if (connectOptions.protocol === 'http:') return callback(null, socket);
                const secure = connectTls({ socket, ...(servername ? { servername } : {}) });
                secure.once('secureConnect', () => callback(null, secure));
                secure.once('error', (error) => callback(error, null));
              },
              (error: Error) => callback(error, null),
            );
            return;
          }
          connectDirectly(
            { ...connectOptions, hostname: address, ...(servername ? { servername } : {}) },
            callback,
          );
        },
        (error: Error) => callback(error, null),
      );
    },
  });
}
