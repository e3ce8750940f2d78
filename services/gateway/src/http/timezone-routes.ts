import type { FastifyInstance } from 'fastify';
import { timezoneList } from './timezone-list.ts';

/** GET /static/timezones.json (docs/product.md#time-zones), a list of {o, d, a, v}; built once per process. */
export function timezoneRoutes(app: FastifyInstance) {
  const body = JSON.stringify(timezoneList(new Date()));
  app.get('/static/timezones.json', async (_request, reply) =>
    reply.type('application/json').header('cache-control', 'public, max-age=3600').send(body),
  );
}
