/** OpenAPI description of the site-detail routes (history-routes.ts). */
import { siteRow } from './target-openapi.ts';

const errorRef = { $ref: '#/components/schemas/ApiError' } as const;
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const idParameter = { name: 'id', in: 'query', required: true, schema: { type: 'string' } } as const;
const signedOut = { description: 'Signed out', ...json(errorRef) } as const;
const notFound = { description: 'not_found (also another user’s site)', ...json(errorRef) } as const;
const imageUrl = {
  type: ['string', 'null'],
  description: 'Path of the picture under /api/v2/screenshot; null without one.',
} as const;

const diffSide = {
  type: ['object', 'null'],
  properties: {
    line: { type: 'integer', description: '1-based line in the normalised content.' },
    segments: {
      type: 'array',
      items: {
        type: 'object',
        properties: { text: { type: 'string' }, changed: { type: 'boolean', description: 'Highlighted.' } },
      },
    },
  },
} as const;

const entry = {
  type: 'object',
  properties: {
    check_id: { type: 'string' },
    due_at: { type: ['string', 'null'], format: 'date-time' },
    checked_at: { type: 'string', format: 'date-time' },
    outcome: { enum: ['no_change', 'update', 'error'] },
    error: {
      type: ['object', 'null'],
      properties: {
        code: {
          type: 'string',
          description:
            'The crawler’s or watch engine’s: unreachable, timeout, http_status, element_not_found, area_empty, blocked_by_robot, ' +
            'refused_address, too_large, too_many_redirects, login_failed, action_failed, browser_crashed, invalid_job, invalid_area_options',
        },
        message_key: {
          type: 'string',
          description: 'errors.<code>; errors.check_failed for a code not listed.',
        },
        detail: { type: 'string', description: 'Names the selector, status or address.' },
        http_status: { type: 'integer', description: 'With http_status: what the site answered.' },
      },
    },
    update: {
      type: ['object', 'null'],
      properties: {
        update_id: { type: 'string' },
        detected_at: { type: 'string', format: 'date-time' },
        notify: { type: 'boolean', description: 'Whether the rule groups said to notify.' },
        matched: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              group_index: { type: 'integer' },
              condition_index: { type: 'integer' },
              area_id: { type: 'string' },
              operand: { enum: ['all', 'new', 'old'] },
              operator: { type: 'string' },
              value: { type: 'string' },
            },
          },
        },
        areas: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              area_id: { type: 'string' },
              label: { type: 'string' },
              diff_text: {
                type: 'string',
                description: "'+ ', '- ', '  ' lines, as the notification carried.",
              },
              added: { type: 'array', items: { type: 'string' } },
              removed: { type: 'array', items: { type: 'string' } },
              rows: {
                type: 'array',
                description: 'Rows of the inline and side-by-side views.',
                items: {
                  type: 'object',
                  properties: {
                    kind: { enum: ['same', 'modified', 'added', 'removed'] },
                    changed: { type: 'boolean', description: 'False: context, never highlighted.' },
                    old: diffSide,
                    new: diffSide,
                  },
                },
              },
            },
          },
        },
        screenshots: { type: 'object', properties: { before: imageUrl, after: imageUrl } },
      },
    },
  },
} as const;

const historyPath = (version: 'v1' | 'v2') => ({
  get: {
    summary: `The site detail’s history of a ${version} site, newest first; opening it (no cursor) clears NEW`,
    security: [{ session: [] }],
    parameters: [
      idParameter,
      { name: 'filter', in: 'query', schema: { enum: ['all', 'update', 'error'], default: 'all' } },
      {
        name: 'day',
        in: 'query',
        schema: { type: 'string', format: 'date' },
        description: 'One day only, in the user’s time zone.',
      },
      {
        name: 'cursor',
        in: 'query',
        schema: { type: 'string' },
        description: 'older_cursor or newer_cursor.',
      },
      { name: 'direction', in: 'query', schema: { enum: ['older', 'newer'], default: 'older' } },
      { name: 'size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
    ],
    responses: {
      '200': {
        description: 'A page of checks',
        ...json({
          type: 'object',
          properties: {
            target: siteRow,
            filter: { enum: ['all', 'update', 'error'] },
            day: { type: ['string', 'null'] },
            time_zone: { type: 'string', description: 'The user’s, which the day is read in.' },
            entries: { type: 'array', items: entry },
            older_cursor: { type: ['string', 'null'] },
            newer_cursor: { type: ['string', 'null'] },
          },
        }),
      },
      '400': {
        description: 'bad_request (field names the parameter); invalid_argument (cursor)',
        ...json(errorRef),
      },
      '401': signedOut,
      '404': notFound,
    },
  },
});

const registrationPath = (version: 'v1' | 'v2') => ({
  get: {
    summary: `The data at registration of a ${version} site: each area’s first recorded text`,
    security: [{ session: [] }],
    parameters: [idParameter],
    responses: {
      '200': {
        description: 'Areas in the order they were first recorded',
        ...json({
          type: 'object',
          properties: {
            target: siteRow,
            areas: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  area_id: { type: 'string' },
                  label: { type: 'string' },
                  text: { type: 'string', description: 'As the watch engine compares it.' },
                  recorded_at: { type: 'string', format: 'date-time' },
                  screenshot: imageUrl,
                },
              },
            },
            page_screenshot: imageUrl,
          },
        }),
      },
      '400': { description: 'bad_request', ...json(errorRef) },
      '401': signedOut,
      '404': notFound,
    },
  },
});

export const historyOpenApiPaths = {
  '/api/history': historyPath('v1'),
  '/api/v2/history': historyPath('v2'),
  '/api/registration_data': registrationPath('v1'),
  '/api/v2/registration_data': registrationPath('v2'),
  '/api/v2/screenshot': {
    get: {
      summary:
        'A picture of the caller’s own site (v1 or v2): an update’s before/after, or one taken at registration. ' +
        'The URLs come from the history and registration-data answers.',
      security: [{ session: [] }],
      parameters: [
        idParameter,
        {
          name: 'image',
          in: 'query',
          required: true,
          schema: { enum: ['before', 'after', 'registration_page', 'registration_area'] },
        },
        {
          name: 'update',
          in: 'query',
          schema: { type: 'string' },
          description: 'before/after: the update id.',
        },
        {
          name: 'day',
          in: 'query',
          schema: { type: 'string', format: 'date' },
          description: 'before/after: the UTC day of the check.',
        },
        {
          name: 'area',
          in: 'query',
          schema: { type: 'string' },
          description: 'registration_area: the area id.',
        },
      ],
      responses: {
        '200': {
          description: 'The picture (WebP), cacheable privately',
          content: { 'image/webp': { schema: { type: 'string', format: 'binary' } } },
        },
        '400': { description: 'bad_request', ...json(errorRef) },
        '401': signedOut,
        '404': { description: 'not_found: no such picture in the caller’s history', ...json(errorRef) },
      },
    },
  },
};
