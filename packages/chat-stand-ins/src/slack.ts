import { randomBytes } from 'node:crypto';
import { slackSignature } from '@mimamori/chat/slack';
import { escapeHtml } from '@mimamori/mail/html-escape';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StandIn, StandInOptions, StandInRecord } from './stand-in.ts';

/**
 * Slack's side for the product (docs/channels.md#slack): the "Add to Slack" consent page of a
 * fake workspace, `oauth.v2.access`, `chat.postMessage` and the external file upload
 * (`files.getUploadURLExternal`, the upload URL, `files.completeUploadExternal`) under
 * `<prefix>/api`, with Slack's limits and its answers for a revoked token, an archived channel
 * or a channel the app is not in. The page at `<prefix>` shows each channel's messages and plays
 * the workspace admin: uninstall the app (signed `app_uninstalled` and `tokens_revoked` events to
 * the product's `/hooks/slack`), archive a channel, remove the app from a channel.
 */
export const SLACK_STAND_IN_TEAM = { id: 'T0MIMAMORI', name: 'Mimamori Stand-in' } as const;
export const SLACK_STAND_IN_CHANNELS = [
  { id: 'C0GENERAL', name: 'general' },
  { id: 'C0ALERTS', name: 'alerts' },
  { id: 'C0RANDOM', name: 'random' },
] as const;

const PLATFORM = 'slack';
const BOT_USER = 'U0MIMAMORIBOT';

/** Block Kit limits as documented, and the undocumented total seen refused (slackapi/bolt-js#2509). */
const LIMITS = {
  blocks: 50,
  sectionText: 3_000,
  fieldText: 2_000,
  fields: 10,
  headerText: 150,
  contextElements: 10,
  imageUrl: 3_000,
  text: 40_000,
  blocksText: 12_000,
  /** Slack's file size limit. */
  fileBytes: 1024 * 1024 * 1024,
};
/** About one message a second per channel (docs.slack.dev rate limits, "Posting messages"). */
const MESSAGE_INTERVAL_MS = 1_000;

interface SlackState {
  /** Issued OAuth codes: one use each. */
  codes: Record<string, { channelId: string; redirectUri: string; scopes: string[] }>;
  /** Each bot token with the scopes its consent granted. */
  tokens: Record<string, { revoked: boolean; scopes: string[] }>;
  /** Channels the app's bot is in: the one picked at each consent. */
  members: string[];
  archived: string[];
}

const EMPTY: SlackState = { codes: {}, tokens: {}, members: [], archived: [] };

type SlackAnswer = Record<string, unknown>;

export function slackStandIn(): StandIn {
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
  const lastPost = new Map<string, number>();
  /** Uploads between their URL and their completion: transient, as Slack's own are. */
  const uploads = new Map<string, { token: string; filename: string; length: number; data: Buffer | null }>();
  const events: string[] = [];

  // Forms (Slack's Web API takes them, and so do this page's buttons) and an upload's raw bytes,
  // parsed only inside this stand-in's routes.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: LIMITS.fileBytes },
    (_request, body, done) => {
      done(null, body);
    },
  );

  const state = () => store.readState<SlackState>(PLATFORM, EMPTY);
  const save = (next: SlackState) => store.writeState(PLATFORM, next);

  /** The token of a Web API call, checked against the scope the method needs: its state, or Slack's error. */
  async function authorize(request: FastifyRequest, params: Record<string, unknown>, scope: string) {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : String(params.token ?? '');
    if (!token) return { error: 'not_authed' } as const;
    const current = await state();
    const known = current.tokens[token];
    if (!known) return { error: 'invalid_auth' } as const;
    if (known.revoked) return { error: 'token_revoked' } as const;
    if (!known.scopes.includes(scope)) return { error: 'missing_scope' } as const;
    return { token, state: current } as const;
  }

  /** Whether the channel takes a message now: Slack's channel errors, then its rate. */
  function channelRefusal(current: SlackState, channelId: string, reply: FastifyReply): SlackAnswer | null {
    if (!SLACK_STAND_IN_CHANNELS.some((channel) => channel.id === channelId)) {
      return { ok: false, error: 'channel_not_found' };
    }
    if (current.archived.includes(channelId)) return { ok: false, error: 'is_archived' };
    if (!current.members.includes(channelId)) return { ok: false, error: 'not_in_channel' };
    const last = lastPost.get(channelId);
    const at = now();
    if (last !== undefined && at - last < MESSAGE_INTERVAL_MS) {
      reply.code(429).header('retry-after', String(Math.ceil((MESSAGE_INTERVAL_MS - (at - last)) / 1000)));
      return { ok: false, error: 'ratelimited' };
    }
    lastPost.set(channelId, at);
    return null;
  }

  app.post('/api/chat.postMessage', async (request, reply) => {
    const params = bodyOf(request);
    const auth = await authorize(request, params, 'chat:write');
    if ('error' in auth) return { ok: false, error: auth.error };
    const channel = String(params.channel ?? '');
    const text = typeof params.text === 'string' ? params.text : '';
    const blocks = readBlocks(params.blocks);
    if (blocks.error)
      return { ok: false, error: blocks.error, response_metadata: { messages: blocks.messages } };
    if (!text && !blocks.blocks) return { ok: false, error: 'no_text' };
    if (text.length > LIMITS.text) return { ok: false, error: 'msg_too_long' };
    const refusal = channelRefusal(auth.state, channel, reply);
    if (refusal) return refusal;
    const record = await store.add(PLATFORM, {
      at: new Date(now()).toISOString(),
      chat: channel,
      body: { method: 'chat.postMessage', text, blocks: blocks.blocks ?? null },
      files: [],
    });
    return { ok: true, channel, ts: messageTs(record, now()) };
  });

  app.post('/api/files.getUploadURLExternal', async (request) => {
    const params = bodyOf(request);
    const auth = await authorize(request, params, 'files:write');
    if ('error' in auth) return { ok: false, error: auth.error };
    const filename = String(params.filename ?? '');
    const length = Number(params.length);
    if (!filename) return { ok: false, error: 'invalid_arguments' };
    if (!Number.isInteger(length) || length < 1) return { ok: false, error: 'invalid_arguments' };
    if (length > LIMITS.fileBytes) return { ok: false, error: 'file_too_large' };
    const fileId = `F${randomBytes(5).toString('hex').toUpperCase()}`;
    uploads.set(fileId, { token: auth.token, filename, length, data: null });
    return { ok: true, upload_url: `${origin(request)}${prefix}/upload/${fileId}`, file_id: fileId };
  });

  app.post<{ Params: { fileId: string } }>('/upload/:fileId', async (request, reply) => {
    const upload = uploads.get(request.params.fileId);
    const data = Buffer.isBuffer(request.body) ? request.body : null;
    if (!upload) return reply.code(404).type('text/plain').send('unknown upload');
    if (!data || data.length !== upload.length) {
      return reply.code(400).type('text/plain').send(`expected ${upload.length} bytes`);
    }
    // The product uploads only its pictures: anything else here is a mistake worth seeing.
    if (!imageType(data)) return reply.code(415).type('text/plain').send('not a PNG, JPEG or GIF image');
    upload.data = data;
    return reply.type('text/plain').send(`OK - ${data.length}`);
  });

  app.post('/api/files.completeUploadExternal', async (request, reply) => {
    const params = bodyOf(request);
    const auth = await authorize(request, params, 'files:write');
    if ('error' in auth) return { ok: false, error: auth.error };
    let files: { id?: unknown; title?: unknown }[];
    try {
      files = typeof params.files === 'string' ? JSON.parse(params.files) : (params.files as typeof files);
    } catch {
      return { ok: false, error: 'invalid_arguments' };
    }
    if (!Array.isArray(files) || files.length === 0) return { ok: false, error: 'invalid_arguments' };
    const uploaded = files.map((file) => ({ file, upload: uploads.get(String(file.id)) }));
    if (uploaded.some(({ upload }) => !upload || upload.token !== auth.token || !upload.data)) {
      return { ok: false, error: 'file_not_found' };
    }
    const comment = typeof params.initial_comment === 'string' ? params.initial_comment : null;
    // Slack ignores the blocks when an initial comment is given.
    const blocks = comment === null ? readBlocks(params.blocks) : { blocks: undefined };
    if (blocks.error)
      return { ok: false, error: blocks.error, response_metadata: { messages: blocks.messages } };
    const channel = typeof params.channel_id === 'string' ? params.channel_id : null;
    if (channel) {
      const refusal = channelRefusal(auth.state, channel, reply);
      if (refusal) return refusal;
    }
    for (const { file } of uploaded) uploads.delete(String(file.id));
    if (channel) {
      await store.add(PLATFORM, {
        at: new Date(now()).toISOString(),
        chat: channel,
        body: {
          method: 'files.completeUploadExternal',
          initial_comment: comment,
          blocks: blocks.blocks ?? null,
          titles: files.map((file) => String(file.title ?? '')),
        },
        files: uploaded.map(({ upload }) => ({
          filename: upload?.filename ?? '',
          contentType: imageType(upload?.data as Buffer) ?? 'application/octet-stream',
          data: upload?.data as Buffer,
        })),
      });
    }
    return { ok: true, files: files.map((file) => ({ id: file.id, title: file.title })) };
  });

  // OAuth v2: the consent page, where the person picks the channel (the incoming-webhook scope's picker).
  app.get('/oauth/v2/authorize', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const problem =
      !options.settings.slack || query.client_id !== options.settings.slack.clientId
        ? 'Unknown client_id: the product is not set up with this stand-in app.'
        : !query.redirect_uri
          ? 'No redirect_uri.'
          : !(query.scope ?? '').split(',').includes('incoming-webhook')
            ? 'The incoming-webhook scope is missing, so no channel can be picked.'
            : null;
    reply.type('text/html; charset=utf-8');
    return consentPage(prefix, query, problem);
  });

  app.post('/oauth/v2/authorize', async (request, reply) => {
    const form = bodyOf(request);
    const redirectUri = String(form.redirect_uri ?? '');
    const target = new URL(redirectUri);
    if (form.state) target.searchParams.set('state', String(form.state));
    const channel = SLACK_STAND_IN_CHANNELS.find((candidate) => candidate.id === form.channel);
    if (form.decision !== 'allow' || !channel) {
      target.searchParams.set('error', 'access_denied');
      return reply.redirect(target.toString());
    }
    const code = `standin-code-${randomBytes(12).toString('hex')}`;
    const current = await state();
    const scopes = String(form.scope ?? '').split(',');
    await save({
      ...current,
      codes: { ...current.codes, [code]: { channelId: channel.id, redirectUri, scopes } },
    });
    target.searchParams.set('code', code);
    return reply.redirect(target.toString());
  });

  app.post('/api/oauth.v2.access', async (request) => {
    const params = bodyOf(request);
    const slack = options.settings.slack;
    const [clientId, clientSecret] = basicAuth(request) ?? [params.client_id, params.client_secret];
    if (!slack || clientId !== slack.clientId) return { ok: false, error: 'invalid_client_id' };
    if (clientSecret !== slack.clientSecret) return { ok: false, error: 'bad_client_secret' };
    const current = await state();
    const issued = current.codes[String(params.code ?? '')];
    if (!issued) return { ok: false, error: 'invalid_code' };
    const { [String(params.code)]: _used, ...codes } = current.codes;
    if (params.redirect_uri !== issued.redirectUri) {
      await save({ ...current, codes });
      return { ok: false, error: 'bad_redirect_uri' };
    }
    const token = `xoxb-standin-${randomBytes(12).toString('hex')}`;
    const channel = SLACK_STAND_IN_CHANNELS.find((candidate) => candidate.id === issued.channelId);
    await save({
      ...current,
      codes,
      tokens: { ...current.tokens, [token]: { revoked: false, scopes: issued.scopes } },
      members: [...new Set([...current.members, issued.channelId])],
    });
    return {
      ok: true,
      app_id: 'A0MIMAMORI',
      authed_user: { id: 'U0PERSON' },
      scope: issued.scopes.join(','),
      token_type: 'bot',
      access_token: token,
      bot_user_id: BOT_USER,
      team: SLACK_STAND_IN_TEAM,
      enterprise: null,
      is_enterprise_install: false,
      incoming_webhook: {
        channel: `#${channel?.name}`,
        channel_id: issued.channelId,
        configuration_url: `${origin(request)}${prefix}`,
        url: `${origin(request)}${prefix}/webhook/${issued.channelId}`,
      },
    };
  });

  // The page and the admin's buttons.
  app.get('/', async (_request, reply) => {
    reply.type('text/html; charset=utf-8');
    return channelsPage(prefix, await state(), await store.list(PLATFORM), events);
  });

  app.get<{ Params: { id: string; index: string } }>('/files/:id/:index', async (request, reply) => {
    const record = (await store.list(PLATFORM)).find(
      (candidate) => String(candidate.id) === request.params.id,
    );
    const file = record?.files[Number(request.params.index)];
    if (!file) return reply.code(404).send();
    return reply.type(file.contentType).send(file.data);
  });

  app.post('/uninstall', async (_request, reply) => {
    const current = await state();
    const tokens = Object.fromEntries(
      Object.entries(current.tokens).map(([token, known]) => [token, { ...known, revoked: true }]),
    );
    await save({ ...current, tokens, members: [] });
    // Slack sends both, in either order (docs.slack.dev app_uninstalled, tokens_revoked).
    for (const event of [
      { type: 'app_uninstalled' },
      { type: 'tokens_revoked', tokens: { oauth: [], bot: [BOT_USER] } },
    ]) {
      events.unshift(await sendEvent(options, event, now()));
    }
    return reply.redirect(prefix);
  });

  app.post<{ Params: { id: string } }>('/channels/:id/archive', async (request, reply) => {
    const current = await state();
    const archived = current.archived.includes(request.params.id)
      ? current.archived.filter((id) => id !== request.params.id)
      : [...current.archived, request.params.id];
    await save({ ...current, archived });
    return reply.redirect(prefix);
  });

  app.post<{ Params: { id: string } }>('/channels/:id/remove-app', async (request, reply) => {
    const current = await state();
    await save({ ...current, members: current.members.filter((id) => id !== request.params.id) });
    return reply.redirect(prefix);
  });
}

/** Posts one signed Events API callback to the product; says how it was answered. */
async function sendEvent(
  options: StandInOptions,
  event: Record<string, unknown>,
  nowMs: number,
): Promise<string> {
  const secret = options.settings.slack?.signingSecret;
  if (!secret) return `${event.type}: not sent, the product has no Slack signing secret`;
  const body = JSON.stringify({
    token: 'deprecated-verification-token',
    team_id: SLACK_STAND_IN_TEAM.id,
    api_app_id: 'A0MIMAMORI',
    event,
    type: 'event_callback',
    event_id: `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
    event_time: Math.floor(nowMs / 1000),
  });
  const timestamp = Math.floor(nowMs / 1000);
  try {
    const response = await fetch(new URL('/hooks/slack', options.productUrl()), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': slackSignature(secret, timestamp, body),
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    return `${event.type}: the product answered ${response.status}`;
  } catch (error) {
    return `${event.type}: the product did not answer (${error instanceof Error ? error.message : String(error)})`;
  }
}

type BlocksRead =
  | { blocks?: unknown[]; error?: undefined; messages?: undefined }
  | { blocks?: undefined; error: string; messages: string[] };

/** A message's `blocks` parameter (a JSON string in a form, an array in JSON), held to Slack's limits. */
function readBlocks(value: unknown): BlocksRead {
  if (value === undefined || value === null || value === '') return {};
  let blocks: unknown;
  try {
    blocks = typeof value === 'string' ? JSON.parse(value) : value;
  } catch {
    return { error: 'invalid_blocks_format', messages: ['blocks is not JSON'] };
  }
  if (!Array.isArray(blocks)) return { error: 'invalid_blocks_format', messages: ['blocks is not an array'] };
  const messages: string[] = [];
  if (blocks.length > LIMITS.blocks)
    messages.push(`no more than ${LIMITS.blocks} items allowed [json-pointer:/blocks]`);
  let total = 0;
  const text = (object: unknown, max: number, where: string) => {
    const value = (object as { text?: unknown; type?: unknown } | undefined)?.text;
    const type = (object as { type?: unknown } | undefined)?.type;
    if (typeof value !== 'string' || value.length === 0 || (type !== 'plain_text' && type !== 'mrkdwn')) {
      messages.push(`must be a text object with text [json-pointer:${where}]`);
      return;
    }
    if (value.length > max)
      messages.push(`must be less than ${max + 1} characters [json-pointer:${where}/text]`);
    total += value.length;
  };
  blocks.forEach((block: Record<string, unknown>, index) => {
    const at = `/blocks/${index}`;
    switch (block?.type) {
      case 'section': {
        if (block.text === undefined && block.fields === undefined)
          messages.push(`must provide text or fields [json-pointer:${at}]`);
        if (block.text !== undefined) text(block.text, LIMITS.sectionText, `${at}/text`);
        if (block.fields !== undefined) {
          const fields = Array.isArray(block.fields) ? block.fields : [];
          if (fields.length === 0 || fields.length > LIMITS.fields)
            messages.push(`must have 1 to ${LIMITS.fields} fields [json-pointer:${at}/fields]`);
          for (const [fieldIndex, field] of fields.entries()) {
            text(field, LIMITS.fieldText, `${at}/fields/${fieldIndex}`);
          }
        }
        break;
      }
      case 'header':
        text(block.text, LIMITS.headerText, `${at}/text`);
        break;
      case 'context': {
        const elements = Array.isArray(block.elements) ? block.elements : [];
        if (elements.length === 0 || elements.length > LIMITS.contextElements)
          messages.push(`must have 1 to ${LIMITS.contextElements} elements [json-pointer:${at}/elements]`);
        for (const [elementIndex, element] of elements.entries()) {
          text(element, LIMITS.sectionText, `${at}/elements/${elementIndex}`);
        }
        break;
      }
      case 'image': {
        const url = block.image_url;
        if (typeof url === 'string') {
          if (
            url.length > LIMITS.imageUrl ||
            !/\.(png|jpe?g|gif)(\?|$)/i.test(new URL(url, 'https://x').pathname)
          )
            messages.push(
              `image_url must be a png, jpg or gif URL of at most ${LIMITS.imageUrl} characters [json-pointer:${at}/image_url]`,
            );
        } else if (!block.slack_file)
          messages.push(`must provide image_url or slack_file [json-pointer:${at}]`);
        if (typeof block.alt_text !== 'string') messages.push(`must provide alt_text [json-pointer:${at}]`);
        break;
      }
      case 'divider':
        break;
      default:
        messages.push(`unsupported block type [json-pointer:${at}/type]`);
    }
  });
  if (messages.length > 0) return { error: 'invalid_blocks', messages };
  if (total > LIMITS.blocksText)
    return { error: 'msg_blocks_too_long', messages: [`${total} characters of text in blocks`] };
  return { blocks };
}

function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return body && typeof body === 'object' && !Buffer.isBuffer(body) ? (body as Record<string, unknown>) : {};
}

function basicAuth(request: FastifyRequest): [string, string] | null {
  const header = request.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return null;
  const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : [decoded.slice(0, colon), decoded.slice(colon + 1)];
}

function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function imageType(data: Buffer): string | null {
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  return null;
}

function messageTs(record: StandInRecord, nowMs: number): string {
  return `${Math.floor(nowMs / 1000)}.${String(record.id).padStart(6, '0')}`;
}

const PAGE_STYLE =
  'body{margin:0;font-family:sans-serif;background:#f8f8f8;color:#1d1c1d}main{max-width:820px;margin:0 auto;padding:16px}' +
  'section.channel{background:#fff;border:1px solid #ddd;border-radius:8px;margin:16px 0;padding:12px}' +
  'article{border-top:1px solid #eee;padding:10px 0}.plain{white-space:pre-wrap}.fields{display:grid;grid-template-columns:1fr 1fr;gap:6px}' +
  'img{max-width:100%;border:1px solid #ddd;border-radius:4px;margin-top:6px}button{font-size:14px;padding:6px 10px;margin-right:6px}';

function consentPage(
  prefix: string,
  query: Record<string, string | undefined>,
  problem: string | null,
): string {
  const hidden = ['redirect_uri', 'state', 'scope']
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(query[name] ?? '')}">`)
    .join('');
  const channels = SLACK_STAND_IN_CHANNELS.map(
    (channel, index) =>
      `<label style="display:block;margin:6px 0"><input type="radio" name="channel" value="${channel.id}"${index === 0 ? ' checked' : ''}> #${escapeHtml(channel.name)}</label>`,
  ).join('');
  const body = problem
    ? `<p role="alert">${escapeHtml(problem)}</p>`
    : `<p>Mimamori is requesting permission to access the <strong>${escapeHtml(SLACK_STAND_IN_TEAM.name)}</strong> Slack workspace.</p>
<p>Scopes: <code>${escapeHtml(query.scope ?? '')}</code></p>
<form method="post" action="${prefix}/oauth/v2/authorize">${hidden}
<fieldset><legend>Where should Mimamori post?</legend>${channels}</fieldset>
<p><button name="decision" value="allow">Allow</button><button name="decision" value="cancel">Cancel</button></p>
</form>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Slack (local): Add to Slack</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${PAGE_STYLE}</style></head>
<body><main><h1>Slack (local stand-in)</h1>${body}</main></body></html>`;
}

function channelsPage(prefix: string, state: SlackState, records: StandInRecord[], events: string[]): string {
  const channels = SLACK_STAND_IN_CHANNELS.map((channel) => {
    const messages = records.filter((record) => record.chat === channel.id);
    const status = [
      state.archived.includes(channel.id) ? 'archived' : null,
      state.members.includes(channel.id) ? 'the app is in this channel' : 'the app is not in this channel',
    ]
      .filter(Boolean)
      .join(' · ');
    return `<section class="channel" data-channel="${channel.id}"><h2>#${escapeHtml(channel.name)} <small>${escapeHtml(status)}</small></h2>
<form method="post" action="${prefix}/channels/${channel.id}/archive" style="display:inline"><button>${state.archived.includes(channel.id) ? 'Unarchive channel' : 'Archive channel'}</button></form>
<form method="post" action="${prefix}/channels/${channel.id}/remove-app" style="display:inline"><button>Remove the app from the channel</button></form>
${messages.length === 0 ? '<p>No message yet.</p>' : messages.map((record) => messageHtml(prefix, record)).join('\n')}
</section>`;
  }).join('\n');
  const sent =
    events.length === 0
      ? ''
      : `<h2>Events sent</h2><ul>${events.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Slack (local)</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${PAGE_STYLE}</style></head>
<body><main><h1>Slack (local stand-in): ${escapeHtml(SLACK_STAND_IN_TEAM.name)}</h1>
<p>Link Slack in Mimamori and approve here; what it posts appears under its channel.</p>
<form method="post" action="${prefix}/uninstall"><button>Uninstall the app</button></form>
${sent}
${channels}
</main></body></html>`;
}

function messageHtml(prefix: string, record: StandInRecord): string {
  const body = record.body as {
    method?: string;
    text?: string;
    blocks?: unknown[] | null;
    initial_comment?: string | null;
  };
  const blocks = (body.blocks ?? []).map((block) => blockHtml(block as Record<string, unknown>)).join('');
  const text =
    !blocks && (body.text || body.initial_comment)
      ? `<div class="plain">${escapeHtml(body.text || body.initial_comment || '')}</div>`
      : '';
  const images = record.files
    .map(
      (file, index) => `<img src="${prefix}/files/${record.id}/${index}" alt="${escapeHtml(file.filename)}">`,
    )
    .join('');
  return `<article class="message"><div><strong>Mimamori</strong> <small>${escapeHtml(record.at)} · ${escapeHtml(body.method ?? '')}</small></div>${blocks}${text}${images}</article>`;
}

function blockHtml(block: Record<string, unknown>): string {
  const textOf = (object: unknown) => {
    const { type, text } = (object ?? {}) as { type?: string; text?: string };
    return type === 'mrkdwn'
      ? mrkdwnHtml(text ?? '')
      : `<span class="plain">${escapeHtml(text ?? '')}</span>`;
  };
  switch (block.type) {
    case 'header':
      return `<h3>${textOf(block.text)}</h3>`;
    case 'section': {
      const text = block.text ? `<div class="plain">${textOf(block.text)}</div>` : '';
      const fields = Array.isArray(block.fields)
        ? `<div class="fields">${block.fields.map((field) => `<div class="plain">${textOf(field)}</div>`).join('')}</div>`
        : '';
      return `<div class="block">${text}${fields}</div>`;
    }
    case 'context':
      return `<div class="block" style="font-size:12px;color:#616061">${(Array.isArray(block.elements) ? block.elements : []).map(textOf).join(' ')}</div>`;
    case 'divider':
      return '<hr>';
    default:
      return '';
  }
}

/** Enough of mrkdwn to read a message: entities, *bold* and <url|label> links. */
function mrkdwnHtml(text: string): string {
  const plain = text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
  return escapeHtml(plain)
    .replace(
      /&lt;(https?:\/\/[^|\s]+?)\|(.+?)&gt;/g,
      (_all, url: string, label: string) => `<a href="${url}">${label}</a>`,
    )
    .replace(/\*([^*\n]+)\*/g, '<strong>$1</strong>');
}
