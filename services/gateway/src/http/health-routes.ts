import { health } from '@mimamori/http-api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** `/healthz` answers while the process runs; `/readyz` turns 503 once shutdown begins. */
export function healthRoutes(app: FastifyInstance, deps: { isShuttingDown(): boolean }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/healthz', { schema: { summary: 'Liveness', response: { 200: health.live } } }, async () => ({
    status: 'ok' as const,
  }));
  api.get(
    '/readyz',
    { schema: { summary: 'Readiness', response: { 200: health.ready, 503: health.shuttingDown } } },
    async (_request, reply) =>
      deps.isShuttingDown()
        ? reply.code(503).send({ status: 'shutting_down' })
        : reply.code(200).send({ status: 'ready' }),
  );
}
