import { imageSize, TELEGRAM_LIMITS } from '@mimamori/chat';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptForms, devPage, escapeHtml, field, pageNonce, postToProduct } from './dev-page.ts';
import type { StandIn, StandInOptions, StandInRecord } from './stand-in.ts';
import { type HtmlToken, parseTelegramHtml, visibleText } from './telegram-html.ts';

/** A chat the bot knows, as the stand-in keeps it. */
export interface TelegramStandInChat {
  type: 'private' | 'group' | 'supergroup';
  title?: string;
  /** The user blocked the bot (private chat) or removed it (group). */
  blocked: boolean;
  /** The group became this supergroup: Telegram answers 400 with `migrate_to_chat_id`. */
  migratedTo?: string;
}

/** What the Telegram stand-in keeps across restarts (StandInStore state). */
export interface TelegramStandInState {
  chats: Record<string, TelegramStandInChat>;
  nextUpdateId: number;
  nextMessageId: number;
  /** What the product answered the page's last update. */
  lastHook: string;
}

const PLATFORM = 'telegram';
/** A Telegram user as updates carry them. */
export interface TelegramStandInUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name: string;
  username: string;
  language_code: string;
}

/** The Telegram user the page plays unless told another; their private chat with the bot has their id. */
export const TELEGRAM_STAND_IN_USER: Readonly<TelegramStandInUser> = {
  id: 700000001,
  is_bot: false,
  first_name: 'Mimamori',
  last_name: 'Tester',
  username: 'mimamori_tester',
  language_code: 'ja',
};

/**
 * The user the page plays: `?as=<id>` plays another (a test's own chat, or a second person);
 * each has the id as their chat with the bot.
 */
export function telegramStandInUser(as: string | undefined): TelegramStandInUser {
  if (!as || !/^[1-9][0-9]{0,11}$/.test(as) || Number(as) === TELEGRAM_STAND_IN_USER.id) {
    return { ...TELEGRAM_STAND_IN_USER };
  }
  return { ...TELEGRAM_STAND_IN_USER, id: Number(as), last_name: as, username: `tester_${as}` };
}
/** Telegram's flood limit per chat: about one message a second (bursts are not tolerated here). */
const CHAT_INTERVAL_MS = 1_000;
const MULTIPART_LIMIT = 60 * 1024 * 1024;

type Fields = Record<string, string>;
type Files = Record<string, { filename: string; contentType: string; data: Buffer }>;

/**
 * The Bot API methods the product calls (sendMessage, sendPhoto, sendMediaGroup at
 * `/bot<token>/<method>`) with Telegram's limits and answers, and a page at `/dev/telegram`
 * playing the Telegram app: open the product's deep link (`/dev/telegram/t.me/<bot>?start=<code>`
 * when the deep-link base points here), press Start, block the bot. Each of those reaches the
 * product's `/hooks/telegram` as an update with the webhook's secret token.
 */
export function telegramStandIn(): StandIn {
  return (app, prefix, options) => {
    const nonce = pageNonce();
    const now = options.now ?? Date.now;
    /** When each chat last took a message (kept in memory: a restart forgets the flood window). */
    const lastSent = new Map<string, number>();
    let queue: Promise<unknown> = Promise.resolve();
    const change = <T>(apply: (state: TelegramStandInState) => T | Promise<T>): Promise<T> => {
      const run = queue.then(async () => {
        const state = await readTelegramState(options);
        const result = await apply(state);
        await options.store.writeState(PLATFORM, state);
        return result;
      });
      queue = run.catch(() => undefined);
      return run;
    };

    app.register(async (scope) => {
      acceptForms(scope);
      if (!scope.hasContentTypeParser('multipart/form-data')) {
        scope.addContentTypeParser(
          'multipart/form-data',
          { parseAs: 'buffer', bodyLimit: MULTIPART_LIMIT },
          (_request, body, done) => done(null, body),
        );
      }

      scope.post<{ Params: { bot: string; method: string } }>(
        `${prefix}/:bot/:method`,
        { bodyLimit: MULTIPART_LIMIT, config: { otherSiteMayPost: true } },
        async (request, reply) => {
          const token = options.settings.telegram?.botToken;
          if (!token || request.params.bot !== `bot${token}`) return fail(reply, 401, 'Unauthorized');
          const method = request.params.method;
          if (!['sendMessage', 'sendPhoto', 'sendMediaGroup'].includes(method)) {
            return fail(reply, 404, 'Not Found: method not found');
          }
          const read = await readRequest(request);
          if (!read) return fail(reply, 400, 'Bad Request: invalid request body');
          return change(async (state) => {
            const chatId = read.fields.chat_id ?? '';
            const chat = state.chats[chatId];
            if (!chat) return fail(reply, 400, 'Bad Request: chat not found');
            if (chat.migratedTo) {
              return fail(reply, 400, 'Bad Request: group chat was upgraded to a supergroup chat', {
                migrate_to_chat_id: Number(chat.migratedTo),
              });
            }
            if (chat.blocked) {
              return fail(
                reply,
                403,
                chat.type === 'private'
                  ? 'Forbidden: bot was blocked by the user'
                  : `Forbidden: bot was kicked from the ${chat.type === 'group' ? 'group' : 'supergroup'} chat`,
              );
            }
            const checked = checkMessage(method, read.fields, read.files);
            if ('error' in checked) return fail(reply, 400, checked.error);
            const last = lastSent.get(chatId);
            if (last !== undefined && now() - last < CHAT_INTERVAL_MS) {
              const seconds = Math.ceil((last + CHAT_INTERVAL_MS - now()) / 1000);
              return fail(reply, 429, `Too Many Requests: retry after ${seconds}`, { retry_after: seconds });
            }
            lastSent.set(chatId, now());
            await options.store.add(PLATFORM, {
              at: new Date(now()).toISOString(),
              chat: chatId,
              body: { method, ...checked.shown },
              files: checked.files,
            });
            const date = Math.floor(now() / 1000);
            const message = () => ({
              message_id: state.nextMessageId++,
              date,
              chat: { id: Number(chatId), type: chat.type },
            });
            return reply.send({
              ok: true,
              result: method === 'sendMediaGroup' ? checked.files.map(message) : message(),
            });
          });
        },
      );

      scope.get<{ Querystring: { as?: string } }>(prefix, async (request, reply) => {
        const state = await readTelegramState(options);
        const records = await options.store.list(PLATFORM);
        const user = telegramStandInUser(request.query.as);
        return sendPage(reply, telegramPageBody({ prefix, nonce, state, records, user }));
      });

      // The address bar: a pasted t.me link opens the bot's page here.
      scope.get<{ Querystring: { url?: string } }>(`${prefix}/open`, async (request, reply) => {
        const link = deepLink(request.query.url ?? '');
        if (!link) return reply.code(400).send('Not a Telegram deep link (https://t.me/<bot>?start=<code>).');
        return reply.redirect(
          `${prefix}/t.me/${encodeURIComponent(link.bot)}?start=${encodeURIComponent(link.code)}`,
          303,
        );
      });

      // The bot's chat opened by a deep link: `<deepLinkBase>/<bot>?start=<code>`, with the
      // deep-link base at the stand-in's `t.me` or at the stand-in itself.
      const botPage = async (
        request: FastifyRequest<{ Params: { bot: string }; Querystring: { start?: string; as?: string } }>,
        reply: FastifyReply,
      ) => {
        const bot = options.settings.telegram?.botUsername ?? '';
        if (request.params.bot.toLowerCase() !== bot.toLowerCase()) {
          return sendPage(reply, `<p>There is no bot called @${escapeHtml(request.params.bot)}.</p>`);
        }
        const code = request.query.start ?? '';
        const user = telegramStandInUser(request.query.as);
        return sendPage(
          reply,
          `<p>Chat with <strong>@${escapeHtml(bot)}</strong>, as ${escapeHtml(user.first_name)} ${escapeHtml(user.last_name)}.</p>
<form method="post" action="${prefix}/act"><input type="hidden" name="nonce" value="${nonce}">
<input type="hidden" name="as" value="${user.id}">
<input type="hidden" name="action" value="start"><input type="hidden" name="code" value="${escapeHtml(code)}">
<button type="submit">Start</button></form>
<p><a href="${prefix}?as=${user.id}">Back to the chats</a></p>`,
        );
      };
      scope.get(`${prefix}/t.me/:bot`, botPage);
      scope.get(`${prefix}/:bot`, botPage);

      scope.post(`${prefix}/act`, { config: { otherSiteMayPost: true } }, async (request, reply) => {
        const body = request.body;
        if (field(body, 'nonce') !== nonce)
          return reply.code(403).send('This form is not from the stand-in page.');
        const action = field(body, 'action');
        if (action !== 'start' && action !== 'block') return reply.code(400).send('Unknown action.');
        const user = telegramStandInUser(field(body, 'as'));
        const update = await change((state) =>
          telegramUpdate(state, user, action, field(body, 'code'), now()),
        );
        const said = await deliverUpdate(options, update);
        await change((state) => {
          state.lastHook = said;
        });
        return reply.redirect(`${prefix}?as=${user.id}`, 303);
      });

      scope.get<{ Params: { id: string; index: string } }>(
        `${prefix}/files/:id/:index`,
        async (request, reply) => {
          const record = (await options.store.list(PLATFORM)).find(
            (candidate) => String(candidate.id) === request.params.id,
          );
          const file = record?.files[Number(request.params.index)];
          if (!file) return reply.code(404).send('No such file.');
          return reply.type(file.contentType).header('x-content-type-options', 'nosniff').send(file.data);
        },
      );
    });
  };
}

async function readTelegramState(options: StandInOptions): Promise<TelegramStandInState> {
  return options.store.readState<TelegramStandInState>(PLATFORM, {
    chats: {},
    nextUpdateId: 100_000_001,
    nextMessageId: 1,
    lastHook: '',
  });
}

/** The bot and start code of a deep link: `https://t.me/<bot>?start=<code>` or the stand-in's own form. */
function deepLink(url: string): { bot: string; code: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  const bot = /\/([A-Za-z0-9_]{1,64})\/?$/.exec(parsed.pathname)?.[1];
  const code = parsed.searchParams.get('start');
  return bot && code ? { bot, code } : null;
}

/** The update Telegram sends for what the person did, with the chat's state changed. */
function telegramUpdate(
  state: TelegramStandInState,
  user: TelegramStandInUser,
  action: 'start' | 'block',
  code: string,
  nowMs: number,
) {
  const chat = {
    id: user.id,
    type: 'private',
    username: user.username,
    first_name: user.first_name,
    last_name: user.last_name,
  };
  const date = Math.floor(nowMs / 1000);
  const update_id = state.nextUpdateId++;
  const known = state.chats[String(user.id)] ?? { type: 'private', blocked: false };
  state.chats[String(user.id)] = known;
  if (action === 'block') {
    known.blocked = true;
    const bot = { id: 700000000, is_bot: true, first_name: 'Mimamori', username: 'bot' };
    return {
      update_id,
      my_chat_member: {
        chat,
        from: user,
        date,
        old_chat_member: { user: bot, status: 'member' },
        new_chat_member: { user: bot, status: 'kicked', until_date: 0 },
      },
    };
  }
  // Pressing Start also unblocks the bot.
  known.blocked = false;
  const text = code ? `/start ${code}` : '/start';
  return {
    update_id,
    message: {
      message_id: state.nextMessageId++,
      from: user,
      chat,
      date,
      text,
      entities: [{ offset: 0, length: 6, type: 'bot_command' }],
    },
  };
}

async function deliverUpdate(options: StandInOptions, update: { update_id: number }): Promise<string> {
  const raw = JSON.stringify(update);
  const answered = await postToProduct(
    `${options.productUrl().replace(/\/$/, '')}/hooks/telegram`,
    { 'x-telegram-bot-api-secret-token': options.settings.telegram?.webhookSecret ?? '' },
    raw,
  );
  return 'status' in answered
    ? `update ${update.update_id} sent; the product answered ${answered.status}`
    : `update ${update.update_id} not delivered: ${answered.error}`;
}

/** The Bot API's error answer. */
function fail(
  reply: FastifyReply,
  code: number,
  description: string,
  parameters?: { retry_after?: number; migrate_to_chat_id?: number },
): FastifyReply {
  return reply
    .code(code)
    .send({ ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) });
}

/** A method's fields and files, from JSON, a form or multipart, as the Bot API takes all three. */
async function readRequest(request: FastifyRequest): Promise<{ fields: Fields; files: Files } | null> {
  const type = request.headers['content-type'] ?? '';
  if (!type.startsWith('multipart/form-data')) {
    const body = request.body;
    if (typeof body !== 'object' || body === null) return { fields: {}, files: {} };
    const fields: Fields = {};
    for (const [name, value] of Object.entries(body)) {
      fields[name] = typeof value === 'string' ? value : JSON.stringify(value);
    }
    return { fields, files: {} };
  }
  if (!Buffer.isBuffer(request.body)) return null;
  const form = await new Response(new Uint8Array(request.body), { headers: { 'content-type': type } })
    .formData()
    .catch(() => null);
  if (!form) return null;
  const fields: Fields = {};
  const files: Files = {};
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') fields[name] = value;
    else
      files[name] = {
        filename: value.name,
        contentType: value.type || 'application/octet-stream',
        data: Buffer.from(await value.arrayBuffer()),
      };
  }
  return { fields, files };
}

/** Telegram's checks of one message; what the page shows of it and its photos when it passes. */
function checkMessage(
  method: string,
  fields: Fields,
  files: Files,
): { error: string } | { shown: Record<string, unknown>; files: StandInRecord['files'][number][] } {
  const parseMode = fields.parse_mode;
  if (parseMode !== undefined && parseMode !== 'HTML')
    return { error: 'Bad Request: unsupported parse_mode' };
  const parsed = (text: string) =>
    parseMode === 'HTML' ? parseTelegramHtml(text) : { tokens: [{ kind: 'text' as const, text }] };
  if (method === 'sendMessage') {
    const text = parsed(fields.text ?? '');
    if ('error' in text) return text;
    const visible = visibleText(text.tokens);
    if (visible.trim() === '') return { error: 'Bad Request: message text is empty' };
    if (visible.length > TELEGRAM_LIMITS.textLength) return { error: 'Bad Request: message is too long' };
    return { shown: { text: fields.text, parse_mode: parseMode, html: pageHtml(text.tokens) }, files: [] };
  }
  const items: { media: string; caption?: string }[] =
    method === 'sendPhoto'
      ? [{ media: 'attach://photo', caption: fields.caption }]
      : mediaItems(fields.media);
  if (
    method === 'sendMediaGroup' &&
    (items.length < TELEGRAM_LIMITS.albumMin || items.length > TELEGRAM_LIMITS.albumMax)
  ) {
    return { error: 'Bad Request: media group must have 2-10 items' };
  }
  const photos: StandInRecord['files'][number][] = [];
  const captions: string[] = [];
  for (const item of items) {
    const caption = parsed(item.caption ?? '');
    if ('error' in caption) return caption;
    if (visibleText(caption.tokens).length > TELEGRAM_LIMITS.captionLength) {
      return { error: 'Bad Request: message caption is too long' };
    }
    captions.push(visibleText(caption.tokens));
    const name = item.media.startsWith('attach://') ? item.media.slice('attach://'.length) : '';
    const file = method === 'sendPhoto' ? files.photo : files[name];
    if (!file) return { error: 'Bad Request: wrong file identifier/HTTP URL specified' };
    const invalid = invalidPhoto(file.data);
    if (invalid) return { error: invalid };
    photos.push(file);
  }
  return { shown: { captions }, files: photos };
}

function mediaItems(json: string | undefined): { media: string; caption?: string }[] {
  try {
    const items = JSON.parse(json ?? '') as unknown;
    if (!Array.isArray(items)) return [];
    return items
      .filter(
        (item): item is { type: string; media: string; caption?: string } =>
          item?.type === 'photo' && typeof item.media === 'string',
      )
      .map((item) => ({
        media: item.media,
        caption: typeof item.caption === 'string' ? item.caption : undefined,
      }));
  } catch {
    return [];
  }
}

/** The photo limits of sendPhoto (core.telegram.org/bots/api#sendphoto): 10 MB, width + height ≤ 10,000, ratio ≤ 20. */
function invalidPhoto(data: Buffer): string | null {
  if (data.length > TELEGRAM_LIMITS.photoBytes) return 'Bad Request: file is too big';
  const size = imageSize(data);
  if (!size || size.width === 0 || size.height === 0) return 'Bad Request: IMAGE_PROCESS_FAILED';
  const ratio = Math.max(size.width / size.height, size.height / size.width);
  if (size.width + size.height > TELEGRAM_LIMITS.photoSides || ratio > TELEGRAM_LIMITS.photoRatio) {
    return 'Bad Request: PHOTO_INVALID_DIMENSIONS';
  }
  return null;
}

/** A message's HTML as the page shows it: Telegram's tags made safe, links only to http(s). */
function pageHtml(tokens: readonly HtmlToken[]): string {
  const shown: Record<string, string> = {
    b: 'strong',
    strong: 'strong',
    i: 'em',
    em: 'em',
    code: 'code',
    pre: 'pre',
  };
  return tokens
    .map((token) => {
      if (token.kind === 'text') return escapeHtml(token.text);
      if (token.tag === 'a') {
        if (token.kind === 'close') return '</a>';
        return /^https?:\/\//.test(token.href ?? '') ? `<a href="${escapeHtml(token.href ?? '')}">` : '<a>';
      }
      const tag = shown[token.tag] ?? 'span';
      return token.kind === 'open' ? `<${tag}>` : `</${tag}>`;
    })
    .join('');
}

function sendPage(reply: FastifyReply, body: string): FastifyReply {
  const page = devPage({ title: 'Telegram (local stand-in)', body });
  return reply.type('text/html; charset=utf-8').header('content-security-policy', page.csp).send(page.html);
}

function telegramPageBody(page: {
  prefix: string;
  nonce: string;
  state: TelegramStandInState;
  records: StandInRecord[];
  user: TelegramStandInUser;
}): string {
  const { prefix, nonce, state, records, user } = page;
  const me = state.chats[String(user.id)];
  const messages = records.filter((record) => record.chat === String(user.id));
  const block =
    me && !me.blocked
      ? `<form method="post" action="${prefix}/act"><input type="hidden" name="nonce" value="${nonce}"><input type="hidden" name="as" value="${user.id}"><input type="hidden" name="action" value="block"><button type="submit">Block the bot</button></form>`
      : '';
  return `<p>You play the Telegram user <strong>@${escapeHtml(user.username)}</strong> (chat ${user.id})${
    me ? (me.blocked ? ', who blocked the bot' : ', who started the bot') : ''
  }.</p>
<form method="get" action="${prefix}/open"><label>Open a link <input name="url" type="url" required placeholder="https://t.me/…?start=…" autocomplete="off"></label> <button type="submit">Open</button></form>
${block}
${state.lastHook ? `<p role="status">${escapeHtml(state.lastHook)}</p>` : ''}
<h2 style="font-size:16px">Chat with the bot</h2>
${messages.length === 0 ? '<p>No message from the bot yet.</p>' : messages.map((record) => messageHtml(record, prefix)).join('\n')}`;
}

function messageHtml(record: StandInRecord, prefix: string): string {
  const body = record.body as { method?: string; html?: string; captions?: string[] };
  const photos = record.files
    .map(
      (_file, index) =>
        `<figure style="margin:6px 0"><img src="${prefix}/files/${record.id}/${index}" alt="photo" style="display:block;max-width:240px;border-radius:8px"><figcaption>${escapeHtml(body.captions?.[index] ?? '')}</figcaption></figure>`,
    )
    .join('');
  const text = body.html ? `<div class="text" style="white-space:pre-wrap">${body.html}</div>` : '';
  return `<article class="message" style="background:#fff;border-radius:12px;padding:8px 12px;margin-top:8px"><small>${escapeHtml(record.at)}</small>${text}${photos}</article>`;
}
