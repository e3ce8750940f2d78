import type { FastifyInstance } from 'fastify';

/** `/healthz` answers while the process runs; `/readyz` turns 503 once shutdown begins. */
export function healthRoutes(app: FastifyInstance, deps: { isShuttingDown(): boolean }) {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) =>
    deps.isShuttingDown() ? reply.code(503).send({ status: 'shutting_down' }) : { status: 'ready' },
  );
}
