import { escapeHtml } from '@mimamori/mail/html-escape';
import type { FastifyInstance } from 'fastify';
import type { StandIn, StandInOptions, StandInRecord } from './stand-in.ts';

/**
 * A Teams Workflows webhook trigger ("Send webhook alerts to a channel") for any flow id: it
 * takes the URL's path under the prefix, holds the envelope and its Adaptive Card to what Teams
 * shows (a message with an AdaptiveCard of version ≤ 1.4 and a body; pictures by https URL), the
 * size to 28 KB and the rate to 4 requests a second, and answers 202. The page at `<prefix>`
 * shows each flow's cards and turns a flow off, after which its trigger answers
 * `WorkflowTriggerIsNotEnabled` as Power Automate does.
 *
 * Teams itself answers 202 to a malformed card and fails inside the flow run, where the sender
 * never sees it; the stand-in answers 400 instead, so a card Teams would not show fails a test.
 */
const PLATFORM = 'teams';
/** "Request Entity Too Large" above about 28 KB (Microsoft's connector docs). */
const MAX_BYTES = 28 * 1024;
/** Connectors were throttled above 4 requests a second; the same is assumed of Workflows. */
const REQUESTS_PER_SECOND = 4;
const ELEMENT_TYPES = new Set([
  'TextBlock',
  'RichTextBlock',
  'FactSet',
  'Image',
  'ImageSet',
  'Container',
  'ColumnSet',
  'ActionSet',
]);

interface TeamsState {
  /** Flows turned off on the page. */
  off: string[];
}

const TRIGGER = '/powerautomate/automations/direct/workflows/:flow/triggers/manual/paths/invoke';

export function teamsStandIn(): StandIn {
  return (app, prefix, options) => {
    app.register(
      (scoped, _opts, done) => {
        routes(scoped, prefix, options);
        done();
      },
      { prefix },
    );
  };
}

function routes(app: FastifyInstance, prefix: string, options: StandInOptions): void {
  const now = options.now ?? Date.now;
  const store = options.store;
  const recent = new Map<string, number[]>();
  const state = () => store.readState<TeamsState>(PLATFORM, { off: [] });

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );
  // The size is judged here, on the bytes as sent, before Fastify's own limit would answer.
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
    (_request, body, done) => {
      done(null, body);
    },
  );

  app.post<{ Params: { flow: string } }>(TRIGGER, async (request, reply) => {
    const flow = request.params.flow;
    const query = request.query as Record<string, string | undefined>;
    if (!query.sig) {
      return reply.code(401).send({
        error: { code: 'DirectApiAuthorizationRequired', message: 'The request must be signed (sig).' },
      });
    }
    if ((await state()).off.includes(flow)) {
      return reply.code(400).send({
        error: {
          code: 'WorkflowTriggerIsNotEnabled',
          message: `Could not find an enabled workflow trigger for workflow '${flow}'. The workflow is turned off.`,
        },
      });
    }
    const at = now();
    const window = (recent.get(flow) ?? []).filter((time) => at - time < 1_000);
    if (window.length >= REQUESTS_PER_SECOND) {
      recent.set(flow, window);
      const wait = Math.ceil((1_000 - (at - (window[0] ?? at))) / 1000);
      return reply
        .code(429)
        .header('retry-after', String(Math.max(1, wait)))
        .send({
          error: { code: 'TooManyRequests', message: 'Rate limit is exceeded.' },
        });
    }
    recent.set(flow, [...window, at]);
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    if (raw.length > MAX_BYTES) {
      return reply
        .code(413)
        .send({ error: { code: 'RequestEntityTooLarge', message: 'Request Entity Too Large' } });
    }
    let payload: unknown;
    try {
      payload = JSON.parse(raw.toString('utf8'));
    } catch {
      return reply
        .code(400)
        .send({ error: { code: 'InvalidRequestContent', message: 'The body is not JSON.' } });
    }
    const problems = cardProblems(payload);
    if (problems.length > 0) {
      return reply.code(400).send({ error: { code: 'StandInInvalidCard', message: problems.join('; ') } });
    }
    await store.add(PLATFORM, { at: new Date(at).toISOString(), chat: flow, body: payload, files: [] });
    return reply.code(202).send();
  });

  app.get('/', async (_request, reply) => {
    reply.type('text/html; charset=utf-8');
    return page(prefix, await state(), await store.list(PLATFORM));
  });

  app.post<{ Params: { flow: string } }>('/flows/:flow/toggle', async (request, reply) => {
    const current = await state();
    const flow = request.params.flow;
    const off = current.off.includes(flow) ? current.off.filter((id) => id !== flow) : [...current.off, flow];
    await store.writeState<TeamsState>(PLATFORM, { ...current, off });
    return reply.redirect(prefix);
  });
}

/** What Teams would not show of a Workflows envelope: none when it is a card Teams renders. */
export function cardProblems(payload: unknown): string[] {
  const problems: string[] = [];
  const envelope = payload as { type?: unknown; attachments?: unknown };
  if (envelope?.type !== 'message') problems.push("type must be 'message'");
  const attachments = Array.isArray(envelope?.attachments) ? envelope.attachments : [];
  if (attachments.length === 0) problems.push('attachments must hold the card');
  for (const [index, attachment] of attachments.entries()) {
    const { contentType, content } = (attachment ?? {}) as {
      contentType?: unknown;
      content?: Record<string, unknown>;
    };
    if (contentType !== 'application/vnd.microsoft.card.adaptive')
      problems.push(`attachments[${index}].contentType must be the Adaptive Card type`);
    if (content?.type !== 'AdaptiveCard')
      problems.push(`Property 'type' must be 'AdaptiveCard' (attachments[${index}])`);
    const version = typeof content?.version === 'string' ? /^1\.([0-4])$/.exec(content.version) : null;
    if (!version) problems.push(`attachments[${index}] version must be 1.0 to 1.4`);
    if (!Array.isArray(content?.body) || content.body.length === 0)
      problems.push(`attachments[${index}] body must hold elements`);
    walk(content?.body, `attachments[${index}].body`, problems);
    walk(content?.actions, `attachments[${index}].actions`, problems);
  }
  return problems;
}

function walk(elements: unknown, at: string, problems: string[]): void {
  if (elements === undefined) return;
  if (!Array.isArray(elements)) {
    problems.push(`${at} must be an array`);
    return;
  }
  elements.forEach((element: Record<string, unknown>, index) => {
    const where = `${at}[${index}]`;
    const type = String(element?.type ?? '');
    if (type.startsWith('Action.')) {
      if (type === 'Action.OpenUrl' && !isHttpUrl(element.url))
        problems.push(`${where}.url must be an http(s) URL`);
      return;
    }
    if (!ELEMENT_TYPES.has(type)) problems.push(`${where} has unknown type '${type}'`);
    if (type === 'Image' && !fetchableImageUrl(element.url)) {
      problems.push(`${where}.url must be an https URL (no data URI)`);
    }
    if (type === 'TextBlock' && typeof element.text !== 'string') problems.push(`${where}.text is required`);
    if (type === 'RichTextBlock') {
      const inlines = Array.isArray(element.inlines) ? element.inlines : [];
      if (
        inlines.some(
          (inline: { type?: unknown; text?: unknown }) =>
            typeof inline === 'object' && (inline?.type !== 'TextRun' || typeof inline.text !== 'string'),
        )
      ) {
        problems.push(`${where}.inlines must be TextRuns with text`);
      }
    }
    walk(element.items, `${where}.items`, problems);
    walk(element.images, `${where}.images`, problems);
    walk(element.actions, `${where}.actions`, problems);
    if (Array.isArray(element.columns)) {
      for (const [columnIndex, column] of (element.columns as { items?: unknown }[]).entries()) {
        walk(column?.items, `${where}.columns[${columnIndex}].items`, problems);
      }
    }
  });
}

/**
 * Teams fetches pictures over https only. The single-process product on this machine has no https
 * address, and its picture links lead to itself on loopback, which this stand-in's page can show:
 * those pass too.
 */
function fetchableImageUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  const loopback = url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\./.test(url.hostname);
  return url.protocol === 'http:' && loopback;
}

function isHttpUrl(value: unknown): boolean {
  return typeof value === 'string' && /^https?:\/\//.test(value);
}

const PAGE_STYLE =
  'body{margin:0;font-family:"Segoe UI",sans-serif;background:#f5f5f5;color:#242424}main{max-width:820px;margin:0 auto;padding:16px}' +
  'section.flow{background:#fff;border:1px solid #ddd;border-radius:8px;margin:16px 0;padding:12px}' +
  'article.card{border:1px solid #e0e0e0;border-left:4px solid #5b5fc7;border-radius:4px;padding:10px;margin:10px 0}' +
  '.run{white-space:pre-wrap}.mono{font-family:monospace}img{max-width:100%;margin-top:6px}table{border-collapse:collapse}td{padding:2px 8px 2px 0;vertical-align:top}';

function page(prefix: string, state: TeamsState, records: StandInRecord[]): string {
  const flows = [...new Set([...records.map((record) => record.chat), ...state.off])];
  const sections = flows
    .map((flow) => {
      const off = state.off.includes(flow);
      const cards = records.filter((record) => record.chat === flow);
      return `<section class="flow" data-flow="${escapeHtml(flow)}"><h2>Flow ${escapeHtml(flow)} <small>${off ? 'turned off' : 'on'}</small></h2>
<form method="post" action="${prefix}/flows/${encodeURIComponent(flow)}/toggle"><button>${off ? 'Turn the flow on' : 'Turn the flow off'}</button></form>
${cards.map(cardHtml).join('\n')}</section>`;
    })
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Teams (local)</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${PAGE_STYLE}</style></head>
<body><main><h1>Microsoft Teams (local stand-in)</h1>
${flows.length === 0 ? `<p>No card yet. Link Teams in Mimamori with any Workflows URL of the form <code>https://default0000.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/local0001/triggers/manual/paths/invoke?api-version=1&amp;sp=%2Ftriggers%2Fmanual%2Frun&amp;sv=1.0&amp;sig=local</code>; the cards appear here.</p>` : sections}
</main></body></html>`;
}

function cardHtml(record: StandInRecord): string {
  const attachments =
    (record.body as { attachments?: { content?: { body?: unknown[]; actions?: unknown[] } }[] })
      .attachments ?? [];
  const parts = attachments.map((attachment) => {
    const body = (attachment.content?.body ?? [])
      .map((element) => elementHtml(element as Record<string, unknown>))
      .join('');
    const actions = (attachment.content?.actions ?? [])
      .map((action) => action as { type?: string; title?: string; url?: string })
      .filter((action) => action.type === 'Action.OpenUrl' && isHttpUrl(action.url))
      .map((action) => `<a href="${escapeHtml(action.url ?? '')}">${escapeHtml(action.title ?? '')}</a>`)
      .join(' ');
    return `${body}${actions ? `<p>${actions}</p>` : ''}`;
  });
  return `<article class="card"><small>${escapeHtml(record.at)}</small>${parts.join('')}</article>`;
}

function elementHtml(element: Record<string, unknown>): string {
  switch (element.type) {
    case 'TextBlock':
      return `<div class="run">${escapeHtml(String(element.text ?? ''))}</div>`;
    case 'RichTextBlock':
      return `<div class="run">${(Array.isArray(element.inlines) ? element.inlines : [])
        .map((inline: { text?: string; weight?: string; fontType?: string }) => {
          const text = escapeHtml(inline.text ?? '');
          const styled = inline.weight === 'Bolder' ? `<strong>${text}</strong>` : text;
          return inline.fontType === 'Monospace' ? `<span class="mono">${styled}</span>` : styled;
        })
        .join('')}</div>`;
    case 'FactSet':
      return `<table>${(Array.isArray(element.facts) ? element.facts : [])
        .map(
          (fact: { title?: string; value?: string }) =>
            `<tr><td><strong>${escapeHtml(fact.title ?? '')}</strong></td><td>${escapeHtml(fact.value ?? '')}</td></tr>`,
        )
        .join('')}</table>`;
    case 'Image':
      return `<img src="${escapeHtml(String(element.url ?? ''))}" alt="${escapeHtml(String(element.altText ?? ''))}">`;
    default:
      return '';
  }
}
