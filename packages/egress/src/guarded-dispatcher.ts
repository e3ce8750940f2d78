import { Agent, buildConnector, type Dispatcher, ProxyAgent } from 'undici';
import { createEgressGuard, type EgressGuard, type EgressOptions } from './egress-guard.ts';
import { RefusedAddressError } from './refused-address-error.ts';

export interface GuardedDispatcherOptions extends EgressOptions {
  /**
   * An upstream proxy (http://user:pass@host:port) from the configured pool. Its own address is
   * trusted configuration; every target is still checked before the proxy is asked for it.
   */
  upstreamProxy?: string;
  /** Connect timeout per connection. */
  connectTimeoutMs?: number;
}

/**
 * An undici dispatcher every crawler request goes through. Without a proxy, each new
 * connection resolves the host, checks every address and connects to the checked one (TLS
 * still names the host for SNI and the certificate), so a DNS answer cannot change between
 * check and connect. Redirects are not followed here: callers follow them hop by hop through
 * this same dispatcher, so each hop is checked.
 */
export function createGuardedDispatcher(options: GuardedDispatcherOptions = {}): Dispatcher {
  const guard = createEgressGuard(options);
  const timeout = options.connectTimeoutMs ?? 10_000;
  if (options.upstreamProxy) {
    return new ProxyAgent({ uri: options.upstreamProxy, connect: { timeout } }).compose(
      checkTargetFirst(guard),
    );
  }
  const connectDirectly = buildConnector({ timeout });
  return new Agent({
    connect(connectOptions, callback) {
      const port = Number(connectOptions.port) || (connectOptions.protocol === 'https:' ? 443 : 80);
      if (connectOptions.protocol !== 'http:' && connectOptions.protocol !== 'https:') {
        callback(new RefusedAddressError(`refused ${connectOptions.protocol} URL`), null);
        return;
      }
      const hostname = connectOptions.hostname.replace(/^\[|\]$/g, '');
      guard.check(hostname, port).then(
        ({ address }) => {
          const servername = address === hostname ? connectOptions.servername : hostname;
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

/** Through a proxy the proxy connects, so the target is checked before the request is handed over. */
function checkTargetFirst(guard: EgressGuard): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (dispatchOptions, handler) => {
    const origin = String(dispatchOptions.origin ?? '');
    guard.checkUrl(origin).then(
      () => dispatch(dispatchOptions, handler),
      (error: Error) => handler.onResponseError?.(null as never, error),
    );
    return true;
  };
}
