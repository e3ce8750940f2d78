import type { FastifyInstance } from 'fastify';

export interface RouteEntry {
  method: string;
  url: string;
}

/**
 * Every route the gateway registers, as the router holds it. The security tests walk this table
 * so that a new route is checked (CSRF, isolation, bad input) without a test written for it.
 */
export function recordRoutes(app: FastifyInstance): readonly RouteEntry[] {
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      routes.push({ method, url: route.url });
    }
  });
  return routes;
}
