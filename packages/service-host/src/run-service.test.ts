import { createServer } from 'node:http';
import { createLogger, createShutdown } from '@mimamori/runtime';
import { describe, expect, it } from 'vitest';
import { runService } from './run-service.ts';
import type { ServiceModule } from './service-module.ts';

const logger = createLogger({ service: 'service-host-test', level: 'silent' });

/** A module with only an HTTP server, as the gateway is: no schema, events or gRPC API. */
async function httpOnlyModule(events: string[]): Promise<ServiceModule> {
  const server = createServer((_request, response) => response.end('front'));
  return {
    name: 'front',
    http: {
      listen: () =>
        new Promise((resolve) =>
          server.listen(0, '127.0.0.1', () => {
            const address = server.address();
            resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`);
          }),
        ),
      close: () =>
        new Promise((resolve) => {
          events.push('http closed');
          server.close(() => resolve());
        }),
    },
    stop: async () => {
      events.push('released');
    },
  };
}

describe('runService', () => {
  it('runs a module with only an HTTP server without a database or bus: served, ready, stopped first', async () => {
    const events: string[] = [];
    const shutdown = createShutdown({ logger, timeoutMs: 5_000 });
    try {
      const running = await runService(await httpOnlyModule(events), {
        logger,
        shutdown,
        grpc: { host: '127.0.0.1', port: 0 },
        ops: { host: '127.0.0.1', port: 0 },
      });
      expect(await (await fetch(running.url ?? '')).text()).toBe('front');
      const ready = await fetch(`${running.opsUrl}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ ready: true, checks: {} });
    } finally {
      await shutdown.run('test finished');
    }
    // Requests stop coming before what serves them (the gateway's gRPC clients) is released.
    expect(events).toEqual(['http closed', 'released']);
  });

  it('refuses a module with a schema when the host has no database', async () => {
    const shutdown = createShutdown({ logger, timeoutMs: 5_000 });
    try {
      await expect(
        runService(
          { name: 'rows', schema: 'rows', migrations: [] },
          { logger, shutdown, grpc: { host: '127.0.0.1', port: 0 } },
        ),
      ).rejects.toThrow('rows keeps a schema, but the host was given none');
    } finally {
      await shutdown.run('test finished');
    }
  });
});
