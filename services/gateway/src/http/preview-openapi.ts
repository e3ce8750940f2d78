/** OpenAPI description of the wizard preview routes (preview-routes.ts). */

const box = {
  type: 'object',
  properties: {
    x: { type: 'number' },
    y: { type: 'number' },
    width: { type: 'number' },
    height: { type: 'number' },
  },
} as const;

const locator = {
  type: 'object',
  required: ['selector'],
  properties: {
    selector: { type: 'string' },
    selector_type: { enum: ['css', 'xpath'], default: 'css' },
    frame_selector: {
      type: 'string',
      description: 'The iframe the element is in; empty for the top document.',
    },
    frame_selector_type: { enum: ['css', 'xpath', ''] },
  },
} as const;

const action = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { enum: ['click', 'enter_text', 'modifier_key', 'goto_url'] },
    locator,
    value: { type: 'string', description: 'Text to type, key to press or URL to go to. Never logged.' },
    skippable: { type: 'boolean' },
  },
} as const;

const problem = {
  type: 'object',
  description: 'Why the page or step did not work: a crawl error code and a detail without secrets.',
  properties: { code: { type: 'string' }, detail: { type: 'string' } },
} as const;

const render = {
  type: 'object',
  properties: {
    url: { type: 'string' },
    screenshot: { type: 'string', description: 'data:image/webp;base64,…' },
    image_width: { type: 'integer' },
    image_height: { type: 'integer' },
    scale: { type: 'number', description: 'Image pixels per CSS pixel of the boxes.' },
    frame: { type: ['object', 'null'], description: 'The frame rendered; null for the top document.' },
    frames: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          css: { type: 'string' },
          xpath: { type: 'string' },
          src: { type: 'string' },
          name: { type: 'string' },
          box,
        },
      },
    },
    elements: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          tag: { type: 'string' },
          css: { type: 'string' },
          xpath: { type: 'string' },
          text: { type: 'string' },
          box,
        },
      },
    },
  },
} as const;

const sessionId = { session_id: { type: 'string' } } as const;
const errors = {
  '400': { description: 'Bad request body or value (bad_request, invalid_url, invalid_selector_type, …)' },
  '401': { description: 'Signed out (unauthenticated)' },
  '403': { description: 'CSRF token missing (csrf_failed)' },
  '404': { description: 'No such preview session for this user (preview_not_found)' },
  '429': { description: 'Too many preview sessions at once (too_many_previews, preview_busy)' },
} as const;

function post(
  summary: string,
  properties: Record<string, unknown>,
  required: string[],
  answer: Record<string, unknown>,
) {
  return {
    post: {
      summary,
      security: [{ session: [] }],
      parameters: [{ name: 'x-csrf-token', in: 'header', required: true, schema: { type: 'string' } }],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { type: 'object', required, properties } } },
      },
      responses: {
        '200': {
          description: 'Done',
          content: { 'application/json': { schema: { type: 'object', properties: answer } } },
        },
        ...errors,
      },
    },
  };
}

export const previewOpenApiPaths = {
  '/api/preview/open': post(
    'Open a page in a new preview session (at most 3 per user; idle sessions expire after 10 minutes)',
    {
      url: { type: 'string' },
      user_agent: {
        type: 'object',
        properties: {
          kind: { enum: ['none', 'free', 'iphone', 'android', 'chrome', 'firefox', 'safari'] },
          value: { type: 'string' },
        },
      },
      viewport: { type: 'object', properties: { width: { type: 'integer' }, height: { type: 'integer' } } },
      cookies: { type: 'string', description: 'Cookie header value for the site. Never logged.' },
      use_proxy: { type: 'boolean' },
    },
    ['url'],
    { session_id: { type: 'string' }, render, problem },
  ),
  '/api/preview/render': post(
    'Render the page again, or inside a frame',
    {
      ...sessionId,
      frame: {
        type: 'object',
        properties: { selector: { type: 'string' }, selector_type: { enum: ['css', 'xpath'] } },
      },
    },
    ['session_id'],
    { render, problem },
  ),
  '/api/preview/area': post(
    'Evaluate a candidate area: its visible text, and whether HTTP mode reads the same text',
    {
      ...sessionId,
      area: locator,
      options: {
        type: 'object',
        description: 'The area options (stripTags, excludeDates, …); the answer then has normalised_text.',
      },
    },
    ['session_id', 'area'],
    {
      found: { type: 'boolean' },
      text: { type: 'string' },
      html: { type: 'string' },
      http_suffices: { type: 'boolean' },
      normalised_text: {
        type: 'string',
        description: 'With options: the content as checks will compare it (lines joined by newlines).',
      },
      options_problem: {
        type: 'object',
        description: 'With options the watch engine refuses: the first one (path, code).',
        properties: { path: { type: 'string' }, code: { type: 'string' } },
      },
      problem,
    },
  ),
  '/api/preview/login': post(
    'Test a login from a signed-out state, verified by a cookie or by the replay succeeding',
    {
      ...sessionId,
      actions: { type: 'array', items: action },
      verify: {
        type: 'object',
        properties: { kind: { enum: ['cookie', 'replay'] }, cookie_name: { type: 'string' } },
      },
    },
    ['session_id', 'actions', 'verify'],
    { ok: { type: 'boolean' }, problem, render },
  ),
  '/api/preview/actions': post(
    'Run actions on the page and render the result',
    { ...sessionId, actions: { type: 'array', items: action } },
    ['session_id', 'actions'],
    { ok: { type: 'boolean' }, problem, render },
  ),
  '/api/preview/close': post('Close a preview session', sessionId, ['session_id'], {
    status: { const: 'closed' },
  }),
};
