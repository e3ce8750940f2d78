import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { isLoopbackHost, LINE_LIMITS, lineSignature } from '@mimamori/chat';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { acceptForms, devPage, escapeHtml, field, pageNonce, postToProduct } from './dev-page.ts';
import type { StandIn, StandInOptions, StandInRecord } from './stand-in.ts';

/** What the switch on the page makes the push API answer, as LINE does (developers.line.biz, HTTP 429 errors). */
export const LINE_LIMIT_MODES = ['none', 'rate', 'quota', 'forbidden'] as const;
export type LineLimitMode = (typeof LINE_LIMIT_MODES)[number];

/** What the LINE stand-in keeps across restarts (StandInStore state). */
export interface LineStandInState {
  /** The LINE user the page plays unless told another (`?as=`). */
  me: string;
  users: Record<string, { friend: boolean }>;
  limit: LineLimitMode;
  /** Retry keys already accepted, newest last (LINE keeps them 24 hours; here the last 1,000). */
  retryKeys: string[];
  /** Reply tokens handed out with events, and the user each answers. */
  replyTokens: Record<string, string>;
  /** What the product answered the page's last event. */
  lastHook: string;
}

const PLATFORM = 'line';
const KEPT_KEYS = 1_000;
const TO = /^[URC][0-9a-f]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ANSWERS = {
  token: 'Authentication failed. Confirm that the access token in the authorization header is valid.',
  rate: 'The API rate limit has been exceeded. Try again later.',
  quota: 'You have reached your monthly limit.',
  forbidden: 'Access to this API is not available for your account',
  unknownUser: 'Failed to send messages',
  retryKey: 'The retry key is already accepted',
} as const;

/**
 * LINE's Messaging API as the product uses it (push and reply), and a page at `/dev/line` where
 * a person plays a LINE user: befriends the official account, sends it the one-time code, blocks
 * it. Each of those reaches the product's `/hooks/line` as LINE sends it, signed with the
 * channel secret. Pushed messages are shown with their pictures fetched by URL, as LINE would.
 */
export function lineStandIn(): StandIn {
  return (app, prefix, options) => {
    const nonce = pageNonce();
    const now = options.now ?? Date.now;
    let queue: Promise<unknown> = Promise.resolve();
    /** One change at a time: state is read, changed and written back whole. */
    const change = <T>(apply: (state: LineStandInState) => T | Promise<T>): Promise<T> => {
      const run = queue.then(async () => {
        const state = await readLineState(options);
        const result = await apply(state);
        await options.store.writeState(PLATFORM, state);
        return result;
      });
      queue = run.catch(() => undefined);
      return run;
    };

    app.register(async (scope) => {
      acceptForms(scope);

      scope.post(
        `${prefix}/v2/bot/message/push`,
        { config: { otherSiteMayPost: true } },
        async (request, reply) => {
          const refused = authorise(request, reply, options);
          if (refused) return refused;
          return change(async (state) => {
            if (state.limit === 'rate' || state.limit === 'quota')
              return answer(reply, 429, ANSWERS[state.limit]);
            if (state.limit === 'forbidden') return answer(reply, 403, ANSWERS.forbidden);
            const retryKey = request.headers['x-line-retry-key'];
            if (retryKey !== undefined && (typeof retryKey !== 'string' || !UUID.test(retryKey))) {
              return answer(reply, 400, 'The value of the X-Line-Retry-Key header is invalid');
            }
            const body = request.body as { to?: unknown; messages?: unknown };
            const invalid = invalidPush(body);
            if (invalid) return answer(reply, 400, invalid.message, invalid.details);
            if (retryKey && state.retryKeys.includes(retryKey)) {
              reply.header('x-line-accepted-request-id', retryKey);
              return answer(reply, 409, ANSWERS.retryKey);
            }
            const to = String(body.to);
            const user = state.users[to];
            // LINE's answer for a user it does not know; a user who blocked the account is sent nothing, silently.
            if (to.startsWith('U') && !user) return answer(reply, 400, ANSWERS.unknownUser);
            if (retryKey) state.retryKeys = [...state.retryKeys, retryKey].slice(-KEPT_KEYS);
            if (!user || user.friend) {
              await options.store.add(PLATFORM, {
                at: new Date(now()).toISOString(),
                chat: to,
                body,
                files: [],
              });
            }
            reply.header('x-line-request-id', randomUUID());
            return reply.send({
              sentMessages: (body.messages as unknown[]).map(() => ({ id: messageId() })),
            });
          });
        },
      );

      scope.post(
        `${prefix}/v2/bot/message/reply`,
        { config: { otherSiteMayPost: true } },
        async (request, reply) => {
          const refused = authorise(request, reply, options);
          if (refused) return refused;
          return change(async (state) => {
            const body = request.body as { replyToken?: unknown; messages?: unknown };
            const user = typeof body.replyToken === 'string' ? state.replyTokens[body.replyToken] : undefined;
            if (!user) return answer(reply, 400, 'Invalid reply token');
            const invalid = invalidPush({ to: user, messages: body.messages });
            if (invalid) return answer(reply, 400, invalid.message, invalid.details);
            delete state.replyTokens[String(body.replyToken)];
            await options.store.add(PLATFORM, {
              at: new Date(now()).toISOString(),
              chat: user,
              body,
              files: [],
            });
            return reply.send({ sentMessages: [] });
          });
        },
      );

      scope.get<{ Querystring: { as?: string } }>(prefix, async (request, reply) => {
        const state = await readLineState(options);
        const as = TO.test(request.query.as ?? '') ? String(request.query.as) : state.me;
        const records = await options.store.list(PLATFORM);
        const page = devPage({
          title: 'LINE (local stand-in)',
          body: linePageBody({ prefix, nonce, as, state, records, options }),
          imageOrigins: imageOrigins(records),
        });
        return reply
          .type('text/html; charset=utf-8')
          .header('content-security-policy', page.csp)
          .send(page.html);
      });

      // The add-friend link of the official account (LINE's `line.me/R/ti/p/@…`).
      scope.get<{ Querystring: { as?: string } }>(`${prefix}/friend`, async (request, reply) => {
        const state = await readLineState(options);
        const as = TO.test(request.query.as ?? '') ? String(request.query.as) : state.me;
        const friend = state.users[as]?.friend === true;
        const name = escapeHtml(options.settings.line?.botBasicId ?? '');
        const page = devPage({
          title: 'LINE (local stand-in)',
          body: `<p>The official account <strong>${name}</strong>${friend ? ' is already your friend.' : '.'}</p>
${friend ? '' : `<form method="post" action="${prefix}/act"><input type="hidden" name="nonce" value="${nonce}"><input type="hidden" name="as" value="${as}"><input type="hidden" name="action" value="follow"><button type="submit">Add friend</button></form>`}
<p><a href="${prefix}?as=${as}">Open the talk</a></p>`,
        });
        return reply
          .type('text/html; charset=utf-8')
          .header('content-security-policy', page.csp)
          .send(page.html);
      });

      scope.post(`${prefix}/act`, { config: { otherSiteMayPost: true } }, async (request, reply) => {
        const body = request.body;
        if (field(body, 'nonce') !== nonce)
          return reply.code(403).send('This form is not from the stand-in page.');
        const action = field(body, 'action');
        const as = TO.test(field(body, 'as')) ? field(body, 'as') : (await readLineState(options)).me;
        if (action === 'limit') {
          const mode = field(body, 'mode');
          await change((state) => {
            state.limit = (LINE_LIMIT_MODES as readonly string[]).includes(mode)
              ? (mode as LineLimitMode)
              : 'none';
          });
          return reply.redirect(`${prefix}?as=${as}`, 303);
        }
        if (action !== 'follow' && action !== 'message' && action !== 'unfollow') {
          return reply.code(400).send('Unknown action.');
        }
        const event = await change((state) => lineEvent(state, as, action, field(body, 'text'), now()));
        const said = event
          ? await deliverLineEvent(options, event)
          : 'Add the official account as a friend first: only a friend can send it messages.';
        await change((state) => {
          state.lastHook = said;
        });
        return reply.redirect(`${prefix}?as=${as}`, 303);
      });
    });
  };
}

async function readLineState(options: StandInOptions): Promise<LineStandInState> {
  const state = await options.store.readState<LineStandInState | null>(PLATFORM, null);
  return (
    state ?? {
      me: lineUserId('you'),
      users: {},
      limit: 'none',
      retryKeys: [],
      replyTokens: {},
      lastHook: '',
    }
  );
}

/** A LINE user id (`U` and 32 hex digits) for a name: the same name plays the same user. */
export function lineUserId(name: string): string {
  return `U${createHash('sha256').update(`mimamori-line-stand-in:${name}`).digest('hex').slice(0, 32)}`;
}

/** The webhook body LINE sends for what the person did, with the user's friendship updated. */
function lineEvent(
  state: LineStandInState,
  userId: string,
  action: 'follow' | 'message' | 'unfollow',
  text: string,
  nowMs: number,
): Record<string, unknown> | null {
  const known = userId in state.users;
  const user = state.users[userId] ?? { friend: false };
  state.users[userId] = user;
  if (action === 'message' && !user.friend) return null;
  const common = {
    mode: 'active',
    timestamp: nowMs,
    source: { type: 'user', userId },
    webhookEventId: randomBytes(13).toString('hex').toUpperCase(),
    deliveryContext: { isRedelivery: false },
  };
  if (action === 'unfollow') {
    user.friend = false;
    return { type: 'unfollow', ...common };
  }
  const replyToken = randomBytes(16).toString('hex');
  state.replyTokens[replyToken] = userId;
  if (action === 'follow') {
    const isUnblocked = known && !user.friend;
    user.friend = true;
    return { type: 'follow', ...common, replyToken, follow: { isUnblocked } };
  }
  return {
    type: 'message',
    ...common,
    replyToken,
    message: { type: 'text', id: messageId(), quoteToken: randomBytes(8).toString('hex'), text },
  };
}

/** Sends one event to the product's `/hooks/line`, signed as LINE signs; says what came back. */
async function deliverLineEvent(options: StandInOptions, event: Record<string, unknown>): Promise<string> {
  const secret = options.settings.line?.channelSecret ?? '';
  const raw = JSON.stringify({ destination: lineUserId('official-account'), events: [event] });
  const answered = await postToProduct(
    `${options.productUrl().replace(/\/$/, '')}/hooks/line`,
    { 'x-line-signature': lineSignature(secret, Buffer.from(raw)) },
    raw,
  );
  return 'status' in answered
    ? `${String(event.type)} sent; the product answered ${answered.status}`
    : `${String(event.type)} not delivered: ${answered.error}`;
}

function authorise(
  request: FastifyRequest,
  reply: FastifyReply,
  options: StandInOptions,
): FastifyReply | null {
  const token = options.settings.line?.channelAccessToken;
  if (!token || request.headers.authorization !== `Bearer ${token}`) return answer(reply, 401, ANSWERS.token);
  return null;
}

/** LINE's error body: `{ message, details? }`. */
function answer(
  reply: FastifyReply,
  status: number,
  message: string,
  details?: { message: string; property: string }[],
): FastifyReply {
  return reply.code(status).send(details ? { message, details } : { message });
}

/** What LINE would refuse in a push body, in LINE's words; null when it is fine. */
function invalidPush(body: {
  to?: unknown;
  messages?: unknown;
}): { message: string; details?: { message: string; property: string }[] } | null {
  if (typeof body?.to !== 'string' || !TO.test(body.to)) {
    return { message: "The property, 'to', in the request body is invalid (line: -, column: -)" };
  }
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length < 1 || messages.length > LINE_LIMITS.messagesPerPush) {
    return {
      message: 'The request body has 1 error(s)',
      details: [{ message: 'Size must be between 1 and 5', property: 'messages' }],
    };
  }
  for (const [index, message] of messages.entries()) {
    const bad = (detail: string, property: string) => ({
      message: `A message (messages[${index}]) in the request body is invalid`,
      details: [{ message: detail, property: `messages[${index}].${property}` }],
    });
    const { type, text, originalContentUrl, previewImageUrl } = (message ?? {}) as Record<string, unknown>;
    if (type === 'text') {
      if (typeof text !== 'string' || text.length === 0) return bad('May not be empty', 'text');
      if (text.length > LINE_LIMITS.textLength) return bad('Length must be between 0 and 5000', 'text');
    } else if (type === 'image') {
      for (const [name, url] of [
        ['originalContentUrl', originalContentUrl],
        ['previewImageUrl', previewImageUrl],
      ] as const) {
        if (typeof url !== 'string' || url.length > LINE_LIMITS.imageUrlLength) {
          return bad(`Length must be between 0 and ${LINE_LIMITS.imageUrlLength}`, name);
        }
        if (!fetchable(url)) return bad('Must be a HTTPS URL', name);
      }
    } else {
      return bad('Must be one of the following values: [text, image]', 'type');
    }
  }
  return null;
}

/** LINE fetches pictures over HTTPS; the local product's loopback http address stands in for it. */
function fetchable(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname));
  } catch {
    return false;
  }
}

function messageId(): string {
  return String(BigInt(`0x${randomBytes(7).toString('hex')}`));
}

function imageOrigins(records: StandInRecord[]): string[] {
  const origins = new Set<string>();
  for (const record of records) {
    for (const image of imagesOf(record)) {
      if (fetchable(image)) origins.add(new URL(image).origin);
    }
  }
  return [...origins];
}

function imagesOf(record: StandInRecord): string[] {
  const messages = (record.body as { messages?: unknown }).messages;
  if (!Array.isArray(messages)) return [];
  return messages
    .filter((message): message is { type: 'image'; originalContentUrl: string } => message?.type === 'image')
    .map((message) => message.originalContentUrl);
}

function linePageBody(page: {
  prefix: string;
  nonce: string;
  as: string;
  state: LineStandInState;
  records: StandInRecord[];
  options: StandInOptions;
}): string {
  const { prefix, nonce, as, state, records } = page;
  const friend = state.users[as]?.friend === true;
  const hidden = `<input type="hidden" name="nonce" value="${nonce}"><input type="hidden" name="as" value="${escapeHtml(as)}">`;
  const button = (action: string, label: string) =>
    `<form method="post" action="${prefix}/act" style="display:inline">${hidden}<input type="hidden" name="action" value="${action}"><button type="submit">${label}</button></form>`;
  const modes = LINE_LIMIT_MODES.map(
    (mode) => `<option value="${mode}"${mode === state.limit ? ' selected' : ''}>${mode}</option>`,
  ).join('');
  const messages = records.filter((record) => record.chat === as);
  return `<p>You play the LINE user <code>${escapeHtml(as)}</code>, ${friend ? 'a friend of the official account' : 'not a friend of the official account'}${
    page.options.settings.line ? ` <strong>${escapeHtml(page.options.settings.line.botBasicId)}</strong>` : ''
  }.</p>
<p>${friend ? button('unfollow', 'Block the official account') : button('follow', 'Add the official account as a friend')}</p>
<form method="post" action="${prefix}/act">${hidden}<input type="hidden" name="action" value="message">
<label>Message to the official account (the code Mimamori shows) <input name="text" required maxlength="5000" autocomplete="off"></label>
<button type="submit">Send</button></form>
${state.lastHook ? `<p role="status">${escapeHtml(state.lastHook)}</p>` : ''}
<form method="post" action="${prefix}/act">${hidden}<input type="hidden" name="action" value="limit">
<label>Push API answers <select name="mode">${modes}</select></label> <button type="submit">Set</button>
<small>rate: 429 rate limit; quota: 429 monthly limit; forbidden: 403</small></form>
<h2 style="font-size:16px">Talk with the official account</h2>
${messages.length === 0 ? '<p>No message from the official account yet.</p>' : messages.map(messageHtml).join('\n')}`;
}

function messageHtml(record: StandInRecord): string {
  const messages = (record.body as { messages?: unknown }).messages;
  const parts = (Array.isArray(messages) ? messages : []).map((message: Record<string, unknown>) => {
    if (message.type === 'text') {
      return `<div class="text" style="white-space:pre-wrap;background:#fff;border-radius:12px;padding:8px 12px;margin-top:6px">${escapeHtml(String(message.text))}</div>`;
    }
    const url = String(message.originalContentUrl);
    return fetchable(url)
      ? `<img src="${escapeHtml(url)}" alt="picture" style="display:block;max-width:240px;margin-top:6px;border-radius:8px">`
      : '';
  });
  return `<article class="message" style="padding:8px 0;border-bottom:1px solid #ddd"><small>${escapeHtml(record.at)}</small>${parts.join('')}</article>`;
}
