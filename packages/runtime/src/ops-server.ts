import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';

export interface OpsServerOptions {
  /** 0 picks a free port. */
  port: number;
  /** Defaults to loopback; a pod binds 0.0.0.0 so the kubelet can probe it. */
  host?: string | undefined;
  metrics: Metrics;
  /** Named checks (database, bus, …); all must be true for /readyz to answer 200. */
  readiness: () => Promise<Record<string, boolean>>;
  /** From the shared shutdown: once it begins, /readyz answers 503 so traffic drains away. */
  isShuttingDown?: () => boolean;
  logger: Logger;
}

export interface OpsServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * The endpoints Kubernetes and Prometheus use: GET /livez (200 while the process runs),
 * GET /readyz (200 only when every readiness check passes and no shutdown has begun; 503
 * with the failed checks otherwise) and GET /metrics (Prometheus text).
 */
export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const { metrics, logger } = options;
  const host = options.host ?? '127.0.0.1';
  let closing = false;

  async function readyz(response: ServerResponse) {
    if (closing || options.isShuttingDown?.()) {
      return sendJson(response, 503, { ready: false, shuttingDown: true, failed: [] });
    }
    let checks: Record<string, boolean>;
    try {
      checks = await options.readiness();
    } catch (error) {
      logger.warn({ err: error }, 'readiness check threw');
      return sendJson(response, 503, { ready: false, shuttingDown: false, failed: ['readiness'] });
    }
    const failed = Object.entries(checks)
      .filter(([, ok]) => !ok)
      .map(([name]) => name);
    sendJson(response, failed.length === 0 ? 200 : 503, { ready: failed.length === 0, checks, failed });
  }

  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return sendJson(response, 405, { error: 'method not allowed' });
    }
    if (path === '/livez') return sendJson(response, 200, { live: true });
    if (path === '/readyz') return void readyz(response);
    if (path === '/metrics') {
      return void metrics.registry.metrics().then(
        (text) => {
          response.writeHead(200, { 'content-type': metrics.registry.contentType });
          response.end(text);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'metrics collection failed');
          sendJson(response, 500, { error: 'metrics collection failed' });
        },
      );
    }
    sendJson(response, 404, { error: 'not found' });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${urlHost(host)}:${port}`;
  logger.info({ url }, 'ops server listening');

  return {
    port,
    url,
    close() {
      closing = true;
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      });
    },
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}

// A wildcard bind is reachable on loopback; IPv6 literals need brackets in a URL.
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
