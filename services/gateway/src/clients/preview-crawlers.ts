import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { status } from '@grpc/grpc-js';
import { crawlerV1 } from '@mimamori/contracts';
import { createGrpcClient } from '@mimamori/runtime';

/**
 * The crawlers behind the wizard preview (ADR 0011). A preview session lives in the crawler
 * process that opened it, and its id ends in `@host:port` of that process: every follow-up
 * call goes there. The gateway dials only the addresses its crawler target names (the pods a
 * headless Service resolves to, or an `ipv4:` list), so a made-up id cannot send it anywhere
 * else; such an id is answered as an unknown session.
 */
export interface PreviewCrawlers {
  /** Where a new session opens: calls are spread over every crawler. */
  readonly opening: crawlerV1.PreviewServiceClient;
  /** The crawler holding `sessionId`; a bare id (one crawler, no address in it) goes to `opening`. */
  holding(sessionId: string): Promise<crawlerV1.PreviewServiceClient>;
  close(): void;
}

/** `target`: the gRPC target of the crawlers, e.g. `mimamori-crawler:50051` (a headless Service). */
export function previewCrawlers(
  target: string,
  { deadlineMs }: { deadlineMs?: number } = {},
): PreviewCrawlers {
  const deadline = deadlineMs === undefined ? {} : { deadlineMs };
  const opening = createGrpcClient(crawlerV1.PreviewServiceClient, target, {
    ...deadline,
    loadBalancing: 'round_robin',
  });
  const byAddress = new Map<string, crawlerV1.PreviewServiceClient>();
  return {
    opening,
    async holding(sessionId) {
      const at = sessionId.lastIndexOf('@');
      if (at < 0) return opening;
      const address = sessionId.slice(at + 1);
      const crawlers = await crawlerAddresses(target);
      // Pods come and go: a client of a crawler no longer there only holds a dead channel.
      for (const [known, client] of byAddress)
        if (!crawlers.includes(known)) {
          client.close();
          byAddress.delete(known);
        }
      if (!crawlers.includes(address)) throw unknownSession();
      let client = byAddress.get(address);
      if (!client) {
        client = createGrpcClient(crawlerV1.PreviewServiceClient, address, deadline);
        byAddress.set(address, client);
      }
      return client;
    },
    close() {
      opening.close();
      for (const client of byAddress.values()) client.close();
      byAddress.clear();
    },
  };
}

/** The `host:port` of every crawler the target names now. */
async function crawlerAddresses(target: string): Promise<string[]> {
  const listed = /^ipv[46]:(.+)$/.exec(target);
  if (listed) return (listed[1] as string).split(',').map((entry) => entry.trim());
  const { host, port } = splitHostPort(target.replace(/^dns:(\/\/[^/]*\/)?/, ''));
  if (isIP(host)) return [joinHostPort(host, port)];
  const found = await lookup(host, { all: true }).catch(() => []);
  return found.map(({ address }) => joinHostPort(address, port));
}

function splitHostPort(hostPort: string): { host: string; port: string } {
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(hostPort);
  if (bracketed) return { host: bracketed[1] as string, port: bracketed[2] as string };
  const colon = hostPort.lastIndexOf(':');
  if (colon < 0) return { host: hostPort, port: '' };
  return { host: hostPort.slice(0, colon), port: hostPort.slice(colon + 1) };
}

const joinHostPort = (host: string, port: string) =>
  isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;

/** What the crawler answers for a session it does not hold, so both read the same. */
function unknownSession() {
  return Object.assign(new Error('preview_not_found'), {
    code: status.NOT_FOUND,
    details: 'preview_not_found',
  });
}
