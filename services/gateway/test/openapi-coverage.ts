import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

type Answer = { description?: string; content?: Record<string, { schema?: object }> };
type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, { responses?: Record<string, Answer> }>>;
};

/**
 * Every method and path the gateway serves, from Fastify's own route table. printRoutes draws a
 * tree whose nodes hold path pieces (four characters of indent a level); a path is its pieces
 * from the root down.
 */
function servedRoutes(app: FastifyInstance): { method: string; path: string }[] {
  const pieces: string[] = [];
  return app
    .printRoutes({ commonPrefix: false })
    .split('\n')
    .flatMap((line) => {
      const match = /^([│ ]*)[├└]── (.+?)(?: \(([^)]+)\))?$/.exec(line);
      if (!match) return [];
      const [, indent = '', piece = '', methods] = match;
      const depth = indent.length / 4;
      pieces.length = depth;
      pieces.push(piece);
      const path = pieces.join('');
      return (methods ?? '')
        .split(', ')
        .filter((method) => method && method !== 'HEAD')
        .map((method) => ({ method, path }));
    });
}

/**
 * The OpenAPI document is generated from the routes' schemas; this checks it is complete both
 * ways: every /api route served is described with the schema of what it answers, and every path
 * described is served. Returns the document for further checks.
 */
export async function expectEveryApiRouteDescribed(app: FastifyInstance): Promise<OpenApiDocument> {
  const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  const document = response.json() as OpenApiDocument;
  expect(document.openapi).toBe('3.1.0');
  const served = servedRoutes(app).filter(
    ({ path }) => path.startsWith('/api/') && path !== '/api/openapi.json',
  );
  expect(served.length).toBeGreaterThan(0);
  for (const { method, path } of served) {
    const operation = document.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
    expect(operation, `${method} ${path} described`).toBeDefined();
    const answers = Object.entries(operation?.responses ?? {});
    const success = answers.filter(([status]) => /^[23]/.test(status));
    expect(success.length, `${method} ${path} has a success answer`).toBeGreaterThan(0);
    for (const [status, answer] of success) {
      // A redirect has no body; every other success answer carries the schema of its body.
      const schemas = Object.values(answer.content ?? {}).map((content) => content.schema);
      if (status.startsWith('3')) expect(answer.description, `${method} ${path} ${status}`).toBeTruthy();
      else
        expect(schemas.length && schemas.every(Boolean), `${method} ${path} ${status} schema`).toBeTruthy();
    }
  }
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const method of Object.keys(operations)) {
      const url = path.replace(/\{[^}]+\}/g, 'x');
      expect(app.hasRoute({ method: method.toUpperCase() as 'GET', url }), `${method} ${path} served`).toBe(
        true,
      );
    }
  }
  return document;
}
