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

  const guard: EgressGuard = {
    async check(rawHostname, port) {
      const hostname = rawHostname.replace(/^\[|\]$/g, '').toLowerCase();
      const isAllowed = allowed.has(`${hostname}:${port}`) || allowed.has(`[${hostname}]:${port}`);
      const family = isIP(hostname);
      const addresses =
        family !== 0
          ? [{ address: hostname, family }]
          : await lookup(hostname, { all: true, verbatim: true }).catch((error: NodeJS.ErrnoException) => {
              throw Object.assign(
                new Error(`could not resolve ${hostname}: ${error.code ?? error.message}`),
                {
                  code: error.code,
                },
              );
            });
      const first = addresses[0];
      if (!first) throw new Error(`could not resolve ${hostname}: no address`);
      if (!isAllowed) {
        // Every answer must be public: a name that also points inside is refused outright.
        for (const { address } of addresses) {
          const refusal = addressRefusal(address);
          if (refusal) throw new RefusedAddressError(`refused ${hostname}:${port}: ${refusal}`);
        }
      }
      return { address: first.address, family: first.family === 6 ? 6 : 4 };
    },
    async checkUrl(url) {
      const parsed = typeof url === 'string' ? new URL(url) : url;
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
        throw new RefusedAddressError(`refused ${parsed.protocol} URL: only http and https are fetched`);
      }
      const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
      return guard.check(parsed.hostname, port);
    },
  };
  return guard;
}
