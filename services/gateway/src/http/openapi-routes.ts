import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import {
  createJsonSchemaTransform,
  createJsonSchemaTransformObject,
  serializerCompiler,
} from 'fastify-type-provider-zod';
import { requestShapeCompiler } from './request-shape.ts';

/**
 * Every route declares its request and answers as zod schemas (from @mimamori/http-api); this
 * makes them count: requests are parsed by them, answers are checked against them before they
 * leave (a mismatch is a 500, so a test that calls the route catches it), and /api/openapi.json
 * is generated from them. Awaited before the routes are added: the document is collected from
 * each route as it is registered.
 */
export async function openApiRoutes(app: FastifyInstance) {
  app.setValidatorCompiler(requestShapeCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Mimamori API', version: '1' },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'mimamori_session' } },
      },
    },
    // A picture's bytes (z.instanceof) have no JSON Schema of their own; its meta gives one.
    transform: createJsonSchemaTransform({ zodToJsonConfig: { unrepresentable: 'any' } }),
    transformObject: createJsonSchemaTransformObject({ zodToJsonConfig: { unrepresentable: 'any' } }),
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
