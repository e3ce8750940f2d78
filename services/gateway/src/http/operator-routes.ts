import { operatorDetails as operatorDetailsSchema } from '@mimamori/http-api';
import type { OperatorDetails } from '@mimamori/operator';
import type { FastifyInstance } from 'fastify';

/**
 * GET /api/operator: who sells the product, for the legal pages the SPA shows (the 特商法 page, the
 * privacy policy). Public: the law wants them reachable before anyone signs up.
 */
export function operatorRoutes(app: FastifyInstance, operator: OperatorDetails) {
  const body = JSON.stringify({
    sample: operator.sample,
    legal_name: operator.legalName,
    representative: operator.representative,
    address: operator.address === 'on_request' ? null : operator.address,
    phone: operator.phone === 'on_request' ? null : operator.phone,
    email: operator.email,
    registration_number: operator.registrationNumber,
  });
  app.get(
    '/api/operator',
    { schema: { summary: 'The seller’s legal details', response: { 200: operatorDetailsSchema } } },
    async (_request, reply) =>
      reply.type('application/json').header('cache-control', 'public, max-age=300').send(body),
  );
}
