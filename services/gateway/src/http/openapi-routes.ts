import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
  serializerCompiler,
} from 'fastify-type-provider-zod';
import { requestShapeCompiler } from './request-shape.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

/**
 * A route that takes the session takes a bearer token as well (bearer-token.ts): the session with
 * the CSRF header for a state-changing method, or the token with the scope the method needs.
 */
function withBearer(schema: FastifySchema, method: RouteOptions['method']): FastifySchema {
  if (!schema.security?.some((scheme) => 'session' in scheme)) return schema;
  const reads = [method].flat().every((name) => name === 'GET' || name === 'HEAD');
  const security: Record<string, string[]>[] = reads
    ? [{ session: [] }, { bearer: ['read'] }]
    : [{ session: [], csrf: [] }, { bearer: ['write'] }];
  return { ...schema, security };
}

/**
 * Every route declares its request and answers as zod schemas (from @mimamori/http-api); this
 * makes them count: requests are parsed by them, answers are checked against them before they
 * leave (a mismatch is a 500, so a test that calls the route catches it), and /api/openapi.json
 * is generated from them. Awaited before the routes are added: the document is collected from
 * each route as it is registered.
 */
export async function openApiRoutes(app: FastifyInstance) {
  // A picture's bytes (z.instanceof) have no JSON Schema of their own; its meta gives one.
  const zodTransform = createJsonSchemaTransform({ zodToJsonConfig: { unrepresentable: 'any' } });
  app.setValidatorCompiler(requestShapeCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Mimamori API', version: '1' },
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'The browser’s session, set by POST /api/signin.',
          },
          csrf: {
            type: 'apiKey',
            in: 'header',
            name: 'X-CSRF-Token',
            description:
              'With the session cookie, every method but GET, HEAD and OPTIONS must echo the csrf_token ' +
              'cookie (set on any answer) in this header; otherwise 403 csrf_failed.',
          },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              'A personal access token (mmr_…) made on the account page. Needs the read scope for GET, ' +
              'write for the rest (403 insufficient_scope); unknown, revoked or expired: 401 unauthenticated; ' +
              'too fast: 429 rate_limited with Retry-After. No CSRF header. docs/api.md.',
          },
        },
      },
    },
    transform: (input) => {
      const out = zodTransform(input);
      // Routes without a schema of their own (the local mailbox and Discord pages) have none.
      return out.schema ? { ...out, schema: withBearer(out.schema, input.route.method) } : out;
    },
    transformObject: createJsonSchemaTransformObject({ zodToJsonConfig: { unrepresentable: 'any' } }),
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
