import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressRefusal } from './address-policy.ts';
import { RefusedAddressError } from './refused-address-error.ts';

export interface EgressOptions {
  /**
   * `host:port` destinations reached without the address check: tests' own loopback fixture
   * servers only. Empty in production.
   */
  allow?: readonly string[];
  /**
   * Pages reached without the address check, by origin and path: the single-process product's
   * own demo shop, so a new user can watch it (ADR 0006). Read at every request, since the
   * product's port is known only once it listens. Only `checkUrl` honours them, because only a
   * whole URL shows the path: a bare `check(host, port)` (a CONNECT tunnel, a new connection)
   * still refuses those origins.
   */
  allowPages?: () => readonly AllowedPages[];
}

/** Paths of one origin the guard lets through. */
export interface AllowedPages {
  /** As `URL.origin` writes it, e.g. `http://127.0.0.1:8080`. */
  origin: string;
  /** Exact paths, or prefixes when they end with `/`. */
  paths: readonly string[];
}

export interface CheckedAddress {
  /** The address to connect to: the one that was checked, never resolved again. */
  address: string;
  family: 4 | 6;
}

export interface EgressGuard {
  /** Resolves `hostname` and returns an address it is safe to connect to, or throws RefusedAddressError. */
  check(hostname: string, port: number): Promise<CheckedAddress>;
  /** Refuses URLs other than http and https, then checks their host. */
  checkUrl(url: string | URL): Promise<CheckedAddress>;
}

export function createEgressGuard(options: EgressOptions = {}): EgressGuard {
  const allowed = new Set((options.allow ?? []).map((entry) => entry.trim().toLowerCase()).filter(Boolean));

  const resolveChecked = async (rawHostname: string, port: number, pageAllowed: boolean) => {
    const hostname = canonicalHost(rawHostname);
    const isAllowed =
      pageAllowed || allowed.has(`${hostname}:${port}`) || allowed.has(`[${hostname}]:${port}`);
    if (!isAllowed && isInternalName(hostname)) {
      throw new RefusedAddressError(`refused ${hostname}: the name is for the machine or network itself`);
    }
    const family = isIP(hostname);
    const addresses =
      family !== 0
        ? [{ address: hostname, family }]
        : await lookup(hostname, { all: true, verbatim: true }).catch((error: NodeJS.ErrnoException) => {
            throw Object.assign(new Error(`could not resolve ${hostname}: ${error.code ?? error.message}`), {
              code: error.code,
            });
          });
    const first = addresses[0];
    if (!first) throw new Error(`could not resolve ${hostname}: no address`);
    if (!isAllowed) {
      // Every answer must be public: a name that also points inside is refused outright. What a
      // name resolved to is not told: it would map the inside network for whoever asked.
      for (const { address } of addresses) {
        const refusal = addressRefusal(address);
        if (!refusal) continue;
        throw new RefusedAddressError(
          family !== 0
            ? `refused ${hostname}: ${refusal}`
            : `refused ${hostname}: the name leads to an address that is not public`,
        );
      }
    }
    return { address: first.address, family: first.family === 6 ? 6 : 4 } satisfies CheckedAddress;
  };
  const guard: EgressGuard = {
    check: (hostname, port) => resolveChecked(hostname, port, false),
    async checkUrl(url) {
      const parsed = typeof url === 'string' ? new URL(url) : url;
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        throw new RefusedAddressError(`refused ${parsed.protocol} URL: only http and https are fetched`);
      }
      const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
      return resolveChecked(parsed.hostname, port, isAllowedPage(options.allowPages?.() ?? [], parsed));
    },
  };
  return guard;
}

/**
 * The host as the guard judges it: without IPv6 brackets, lower case and without the trailing
 * dots of a fully qualified name, so `LOCALHOST.` is judged (and resolved) as `localhost`.
 */
export function canonicalHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.+$/, '');
}

// Names that mean this machine (RFC 6761 `localhost`) or the cloud's metadata service whatever
// a resolver says; refused by name so no lookup runs and no retry waits on a DNS answer.
const INTERNAL_NAMES = new Set(['localhost', 'metadata', 'metadata.google.internal', 'instance-data']);

function isInternalName(hostname: string): boolean {
  return INTERNAL_NAMES.has(hostname) || hostname.endsWith('.localhost') || hostname.endsWith('.internal');
}

function isAllowedPage(allowedPages: readonly AllowedPages[], url: URL): boolean {
  // URL has already resolved dot segments (`/mock/ec/../x` arrives as `/x`); an escaped one
  // (`/assets/..%2f…`) could still be decoded by the server behind, so no escape is let through.
  if (url.pathname.includes('%')) return false;
  return allowedPages.some(
    ({ origin, paths }) =>
      origin === url.origin &&
      paths.some((path) => (path.endsWith('/') ? url.pathname.startsWith(path) : url.pathname === path)),
  );
}
