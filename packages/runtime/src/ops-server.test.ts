import { accountV1 } from '@mimamori/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { accountServiceWith } from './account-service-test-double.ts';
import { createGrpcClient, unary } from './grpc-client.ts';
import { createGrpcServer } from './grpc-server.ts';
import { createLogger } from './logger.ts';
import { createMetrics } from './metrics.ts';
import { type OpsServer, startOpsServer } from './ops-server.ts';
import { createShutdown } from './shutdown.ts';

const logger = createLogger({ service: 'account', level: 'silent' });

describe('ops server', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(options: Partial<Parameters<typeof startOpsServer>[0]> = {}): Promise<OpsServer> {
    const ops = await startOpsServer({
      port: 0,
      metrics: createMetrics({ service: 'account' }),
      readiness: async () => ({}),
      logger,
      ...options,
    });
    cleanups.push(() => ops.close());
    return ops;
  }

  it('answers /livez and names failed readiness checks on /readyz', async () => {
    let databaseUp = true;
    const ops = await start({ readiness: async () => ({ database: databaseUp, bus: true }) });
    expect((await fetch(`${ops.url}/livez`)).status).toBe(200);

    const ready = await fetch(`${ops.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, checks: { database: true, bus: true } });

    databaseUp = false;
    const notReady = await fetch(`${ops.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({ ready: false, failed: ['database'] });
  });

  it('answers 503 on /readyz once shutdown begins, while /livez stays 200', async () => {
    const shutdown = createShutdown({ logger, timeoutMs: 5000 });
    const ops = await start({ isShuttingDown: shutdown.isShuttingDown });
    let releaseDrain!: () => void;
    const draining = new Promise<void>((resolve) => {
      releaseDrain = resolve;
    });
    shutdown.register('grpc', () => draining);
    expect((await fetch(`${ops.url}/readyz`)).status).toBe(200);

    const stopping = shutdown.run('SIGTERM');
    const during = await fetch(`${ops.url}/readyz`);
    expect(during.status).toBe(503);
    expect(await during.json()).toMatchObject({ shuttingDown: true });
    expect((await fetch(`${ops.url}/livez`)).status).toBe(200);
    releaseDrain();
    await stopping;
  });

  it('answers 503 when a readiness check throws', async () => {
    const ops = await start({
      readiness: async () => {
        throw new Error('pool exhausted');
      },
    });
    const response = await fetch(`${ops.url}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ failed: ['readiness'] });
  });

  it('serves Prometheus text with process metrics and the gRPC server counters', async () => {
    const metrics = createMetrics({ service: 'account' });
    const server = createGrpcServer({ logger, metrics });
    server.addService(
      accountV1.AccountServiceService,
      accountServiceWith({
        getUserInfo: (_call, callback) => callback(null, { userInfo: undefined }),
        createAccount: (_call, callback) => callback(null, { userId: 'u' }),
      }),
    );
    const port = await server.start({ host: '127.0.0.1', port: 0 });
    cleanups.push(() => server.shutdown(1000));
    const client = createGrpcClient(accountV1.AccountServiceClient, `127.0.0.1:${port}`);
    cleanups.push(() => client.close());
    await unary(client, 'getUserInfo', { sessionToken: 't' });

    const ops = await start({ metrics });
    const response = await fetch(`${ops.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toContain(
      'grpc_server_handled_total{grpc_service="mimamori.account.v1.AccountService",grpc_method="GetUserInfo",grpc_code="OK",service="account"} 1',
    );
    expect(text).toContain('grpc_server_handling_seconds_count{');
    expect(text).toMatch(/^process_cpu_user_seconds_total\{service="account"\} /m);
  });

  it('answers 404 for other paths', async () => {
    const ops = await start();
    expect((await fetch(`${ops.url}/nope`)).status).toBe(404);
  });
});
