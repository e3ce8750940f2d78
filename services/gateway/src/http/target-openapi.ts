/** OpenAPI description of the monitored-site routes (target-routes.ts). */

const errorRef = { $ref: '#/components/schemas/ApiError' } as const;

const targetError = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message_key'],
      properties: {
        code: {
          type: 'string',
          description:
            'url_required, url_invalid, label_too_long, interval_too_short (specify 1 minute or more), interval_too_long, ' +
            'areas_required, too_many_areas, area_id_invalid, area_id_duplicate, area_content_too_long, selector_required, ' +
            'selector_invalid, selector_type_invalid, invalid_area_options, invalid_rules, user_agent_invalid, ' +
            'user_agent_required, user_agent_too_long, viewport_invalid, cookies_too_long, chat_notify_invalid, ' +
            'discord_webhook_required, discord_webhook_invalid, action_type_invalid, action_value_required, ' +
            'action_value_too_long, too_many_actions, login_verify_invalid, login_cookie_name_required, ' +
            'login_actions_required, fetch_mode_invalid, fetch_mode_needs_browser, bad_request; not_found; ' +
            'action_in_progress, no_free_slot, account_on_hold, too_many_sites; unauthenticated',
        },
        message_key: { type: 'string' },
        field: { type: 'string', description: 'The field refused, e.g. areas[0].options.excludeRegexes[1].' },
        reason: {
          type: 'string',
          description:
            "The watch engine's reason (unsupported_lookaround, unknown_area, …) or the selector type.",
        },
      },
    },
  },
} as const;

export const siteRow = {
  type: 'object',
  description: 'A site-list row (docs/product.md#targets).',
  properties: {
    id: { type: 'string', format: 'uuid' },
    ver: { enum: [1, 2] },
    no: { type: 'integer', description: 'Registration order in the user’s list.' },
    label: { type: 'string' },
    url: { type: 'string' },
    valid: { type: 'boolean', description: 'Monitoring (not paused).' },
    new: { type: 'boolean' },
    proxy: { type: 'boolean' },
    updated: { type: ['string', 'null'], format: 'date-time' },
    checked: { type: ['string', 'null'], format: 'date-time' },
    resumable: { type: 'boolean', description: 'Paused, and a free slot of the plan exists to resume it.' },
    interval_minutes: { type: 'integer' },
  },
} as const;

const locator = {
  type: 'object',
  required: ['selector'],
  properties: {
    selector: { type: 'string' },
    selector_type: { enum: ['css', 'xpath'], default: 'css' },
    frame_selector: { type: 'string' },
    frame_selector_type: { enum: ['css', 'xpath', ''] },
  },
} as const;

const action = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { enum: ['click', 'enter_text', 'modifier_key', 'goto_url'] },
    locator,
    value: {
      type: 'string',
      description:
        'enter_text: the text (write-only; blank on update keeps the stored one); modifier_key: the key; goto_url: the URL.',
    },
    skippable: { type: 'boolean' },
    has_value: { type: 'boolean', description: 'Read only: an enter_text action has a stored text.' },
  },
} as const;

const settings = {
  type: 'object',
  required: ['url', 'interval_minutes', 'areas'],
  properties: {
    label: { type: 'string', maxLength: 200 },
    url: { type: 'string', description: 'http or https' },
    interval_minutes: { type: 'integer', minimum: 1 },
    screenshot: { type: 'boolean' },
    proxy: { type: 'boolean' },
    mail_notify: { type: 'boolean', default: true },
    chat_notify: { enum: ['none', 'account', 'site'], description: 'site: discord_webhook_url of this site' },
    discord_webhook_url: { type: 'string', description: 'Write-only; blank on update keeps the stored one.' },
    user_agent: {
      type: 'object',
      properties: {
        kind: { enum: ['none', 'free', 'iphone', 'android', 'chrome', 'firefox', 'safari'] },
        value: { type: 'string' },
      },
    },
    viewport: { type: 'object', properties: { width: { type: 'integer' }, height: { type: 'integer' } } },
    cookies: { type: 'string', description: 'Cookie header value; write-only, sealed at rest.' },
    clear_cookies: { type: 'boolean', description: 'Update only: remove the stored cookies.' },
    login: {
      type: 'object',
      properties: {
        actions: { type: 'array', items: action },
        verify: {
          type: 'object',
          properties: { kind: { enum: ['cookie', 'replay'] }, cookie_name: { type: 'string' } },
        },
      },
    },
    actions: { type: 'array', items: action },
    areas: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['area_id', 'locator'],
        properties: {
          area_id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
          label: { type: 'string' },
          content: { type: 'string', description: 'The area’s text at registration.' },
          locator,
          options: {
            type: 'object',
            description:
              'The watch engine’s area options: stripTags, excludeDates, excludeTimes, excludeNumbers, addOnly, excludeWords, ' +
              'excludeRegexes (Python syntax), allowSameWords, excludeSameAsPast {enabled, count}.',
          },
        },
      },
    },
    rules: {
      type: 'object',
      description:
        'Notification rule groups {combine, groups: [{combine, conditions: [{areaId, operand, operator, value}]}]}; empty groups are deleted on save.',
    },
    fetch_mode: { enum: ['http', 'browser'], default: 'browser' },
    paused: { type: 'boolean' },
  },
} as const;

const json = (schema: object) => ({ content: { 'application/json': { schema } } });

function post(summary: string, body: object, ok: object, errors: Record<string, string>) {
  return {
    post: {
      summary,
      security: [{ session: [] }],
      requestBody: { required: true, ...json(body) },
      responses: {
        '200': { description: 'Done', ...json(ok) },
        '401': { description: 'Signed out', ...json(errorRef) },
        ...Object.fromEntries(
          Object.entries(errors).map(([status, description]) => [
            status,
            { description, ...json(targetError) },
          ]),
        ),
      },
    },
  };
}

const actionPaths = Object.fromEntries(
  (
    [
      ['/api', 'target_id', 'v1'],
      ['/api/v2', 'target_v2_id', 'v2'],
    ] as const
  ).flatMap(([prefix, idField, version]) => {
    const body = { type: 'object', required: [idField], properties: { [idField]: { type: 'string' } } };
    const done = (status: string) => ({
      type: 'object',
      properties: {
        status: { const: status },
        changed: { type: 'boolean', description: 'False when the site already was in that state.' },
        target: siteRow,
      },
    });
    const busy = 'action_in_progress: another action on the site is running';
    return [
      [
        `${prefix}/pause`,
        post(`Pause a ${version} site`, body, done('paused'), { '404': 'not_found', '409': busy }),
      ],
      [
        `${prefix}/resume`,
        post(`Resume a ${version} site`, body, done('resumed'), {
          '404': 'not_found',
          '409': `${busy}; no_free_slot; account_on_hold`,
        }),
      ],
      [
        `${prefix}/seen`,
        post(
          `Clear a ${version} site's NEW flag (its history was opened)`,
          body,
          { type: 'object', properties: { status: { const: 'seen' }, target: siteRow } },
          { '404': 'not_found' },
        ),
      ],
      [
        `${prefix}/delete`,
        post(
          `Delete a ${version} site`,
          body,
          { type: 'object', properties: { status: { const: 'deleted' } } },
          {
            '404': 'not_found',
            '409': busy,
          },
        ),
      ],
    ];
  }),
);

const saved = {
  type: 'object',
  properties: {
    target_v2_id: { type: 'string' },
    paused: { type: 'boolean' },
    paused_for_quota: {
      type: 'boolean',
      description: 'Saved paused: no free slot of the plan (docs/product.md#quotas).',
    },
    target: siteRow,
  },
} as const;

export const targetOpenApiPaths = {
  '/api/v2/targets': {
    get: {
      summary: 'The site list: v1 and v2 sites in registration order',
      security: [{ session: [] }],
      responses: {
        '200': {
          description: 'Rows and when they were read',
          ...json({
            type: 'object',
            properties: {
              targets: { type: 'array', items: siteRow },
              at: { type: 'string', format: 'date-time' },
            },
          }),
        },
        '401': { description: 'Signed out', ...json(errorRef) },
      },
    },
  },
  ...actionPaths,
  '/api/v2/target': {
    get: {
      summary: 'One v2 site’s settings for the edit screen (secrets never returned)',
      security: [{ session: [] }],
      parameters: [{ name: 'id', in: 'query', required: true, schema: { type: 'string' } }],
      responses: {
        '200': {
          description: 'Settings and row',
          ...json({
            type: 'object',
            properties: {
              id: { type: 'string' },
              ver: { enum: [1, 2] },
              settings: {
                ...settings,
                properties: {
                  ...settings.properties,
                  has_cookies: { type: 'boolean' },
                  has_discord_webhook: { type: 'boolean' },
                },
              },
              row: siteRow,
            },
          }),
        },
        '401': { description: 'Signed out', ...json(errorRef) },
        '404': { description: 'not_found (also another user’s site)', ...json(targetError) },
      },
    },
  },
  '/api/v2/target/register': post('Register a v2 site (201)', settings, saved, {
    '400': 'A setting refused; field names it',
    '409': 'too_many_sites: 5,000 sites kept, paused ones included',
  }),
  '/api/v2/target/update': post(
    'Replace a v2 site’s settings',
    {
      ...settings,
      required: [...settings.required, 'target_v2_id'],
      properties: { ...settings.properties, target_v2_id: { type: 'string' } },
    },
    saved,
    { '400': 'A setting refused; field names it', '404': 'not_found', '409': 'action_in_progress' },
  ),
  '/api/v1/import': post(
    'Create v1 (whole-page) sites from a URL list: plain lines, CSV (url, label) or urlwatch urls.yaml',
    {
      type: 'object',
      required: ['text'],
      properties: { text: { type: 'string' }, format: { enum: ['', 'list', 'csv', 'yaml'], default: '' } },
    },
    {
      type: 'object',
      properties: {
        format: { enum: ['list', 'csv', 'yaml'] },
        imported: {
          type: 'array',
          items: siteRow,
          description: 'Beyond the free slots they are saved paused.',
        },
        problems: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              line: { type: 'integer' },
              code: {
                enum: [
                  'url_invalid',
                  'duplicate',
                  'already_registered',
                  'unsupported_job',
                  'label_too_long',
                  'syntax_error',
                  'too_many',
                ],
              },
              text: { type: 'string' },
            },
          },
        },
      },
    },
    { '400': 'import_empty, import_format_invalid' },
  ),
};
