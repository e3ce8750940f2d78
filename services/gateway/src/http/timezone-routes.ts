import { timezoneList as timezoneListSchema } from '@mimamori/http-api';
import type { FastifyInstance } from 'fastify';
import { timezoneList } from './timezone-list.ts';

/** GET /static/timezones.json (docs/product.md#time-zones), a list of {o, d, a, v}; built once per process. */
export function timezoneRoutes(app: FastifyInstance) {
  // Sent as the text built here, so the answer's schema describes it without serialising it.
  const body = JSON.stringify(timezoneList(new Date()));
  app.get(
    '/static/timezones.json',
    { schema: { summary: 'Time zone choices', response: { 200: timezoneListSchema } } },
    async (_request, reply) =>
      reply.type('application/json').header('cache-control', 'public, max-age=3600').send(body),
  );
}
