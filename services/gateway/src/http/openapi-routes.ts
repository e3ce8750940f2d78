import type { FastifyInstance } from 'fastify';
import { historyOpenApiPaths } from './history-openapi.ts';
import { accountPaths, accountSettingsSchema } from './openapi-account-paths.ts';
import { previewOpenApiPaths } from './preview-openapi.ts';
import { targetOpenApiPaths } from './target-openapi.ts';

const apiError = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message_key'],
      properties: {
        code: { type: 'string', description: 'Stable machine code, e.g. unauthenticated, csrf_failed.' },
        message_key: {
          type: 'string',
          description: 'Key of the message the SPA shows, e.g. errors.unauthenticated.',
        },
      },
    },
  },
} as const;

const quota = {
  type: 'object',
  properties: Object.fromEntries(
    ['_60min', '_10min', '_1min', 'random_ip', 'ss', 'mail', 'line_notify'].map((key) => [
      key,
      { type: 'integer' },
    ]),
  ),
};

/** The browser-facing API, described as it is implemented; grows with every route. */
export const openApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Mimamori API', version: '1' },
  components: {
    securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'mimamori_session' } },
    schemas: {
      ApiError: apiError,
      AccountSettings: accountSettingsSchema,
      UserInfo: {
        type: 'object',
        properties: {
          user_id: { type: 'string' },
          mails: { type: 'array', items: { type: 'string' } },
          num: quota,
          used_num: quota,
          subscription: {
            type: ['object', 'null'],
            properties: {
              price: { type: 'integer', description: 'JPY in whole yen, USD in cents' },
              status: {
                type: 'integer',
                description: '1 trial, 2 active, 6 renewal failed, 7 on hold, 9 cancelled',
              },
              suspend_at: { type: ['string', 'null'], format: 'date-time' },
              s_info: {
                type: ['object', 'null'],
                properties: {
                  Plan: { type: 'integer' },
                  Cycle: { enum: ['month', 'year'] },
                  Options: { type: 'array', items: { type: 'string' } },
                },
              },
            },
          },
          has_pi: { type: 'boolean' },
          tdedinets: { type: 'array', items: { type: 'object' } },
          cik_isins: { type: 'array', items: { type: 'object' } },
          locale: {
            type: 'object',
            properties: {
              Lang: { type: 'string' },
              Timezone: { type: 'string' },
              Currency: { type: 'string' },
            },
          },
          line_url: { type: 'string' },
          line_need_setting: { type: 'boolean' },
          deleted_user: { const: true, description: 'Only when the account ended; the SPA reloads.' },
        },
      },
    },
  },
  paths: {
    ...accountPaths,
    ...previewOpenApiPaths,
    ...targetOpenApiPaths,
    ...historyOpenApiPaths,
    '/healthz': { get: { summary: 'Liveness', responses: { '200': { description: 'The gateway runs.' } } } },
    '/readyz': {
      get: {
        summary: 'Readiness',
        responses: { '200': { description: 'Taking traffic.' }, '503': { description: 'Shutting down.' } },
      },
    },
    '/api/user_info': {
      get: {
        summary: 'The signed-in user (user_info, docs/product.md#quotas)',
        security: [{ session: [] }],
        responses: {
          '200': {
            description: 'user_info',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/UserInfo' } } },
          },
          '401': {
            description: 'Signed out',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
          },
        },
      },
    },
  },
} as const;

export function openApiRoutes(app: FastifyInstance) {
  app.get('/api/openapi.json', async () => openApiDocument);
}
