import type {
  ChatAdapter,
  ChatOutcome,
  ChatPlatformSettings,
  InboundEvent,
  InboundRequest,
} from '../port.ts';
import { SeenSet } from '../seen-set.ts';
import { type LineMessage, lineMessages } from './line-message.ts';
import { lineRetryKey, validLineSignature } from './line-signature.ts';

/** An event older than this is refused: a captured request cannot be sent again later. */
export const LINE_EVENT_MAX_AGE_SECONDS = 5 * 60;
/** LINE's rate limit has no Retry-After; its 2,000 requests a second are free again soon. */
const RATE_LIMITED_RETRY_MS = 5_000;
/** The monthly quota is used up: nothing goes out until the plan changes or the month turns. */
const QUOTA_RETRY_MS = 6 * 60 * 60 * 1000;
/** A refused channel access token is the product's to fix, for every user at once. */
const TOKEN_RETRY_MS = 15 * 60 * 1000;
/** What a user sends the official account: the one-time code the product showed (full-width forms folded). */
const CODE = /^[A-Za-z0-9_-]{4,64}$/;

type LineSettings = NonNullable<ChatPlatformSettings['line']>;

/** The webhook's events as far as the product reads them (developers.line.biz, "Webhook event objects"). */
interface LineEvent {
  type?: unknown;
  timestamp?: unknown;
  webhookEventId?: unknown;
  replyToken?: unknown;
  source?: { type?: unknown; userId?: unknown; groupId?: unknown; roomId?: unknown };
  message?: { type?: unknown; text?: unknown };
}

/**
 * LINE, model A (docs/channels.md#line): the product runs one Official Account that users
 * befriend (or invite to a group) and send the one-time code to; updates go out by the push API
 * to the user, group or room the code came from, as `{ to }`.
 */
export function lineAdapter(): ChatAdapter {
  const seen = new SeenSet();

  return {
    platform: 'line',
    enabled: (settings) => Boolean(settings.line?.channelAccessToken && settings.line.channelSecret),
    linking: {
      kind: 'code',
      // The user befriends the account there and sends it the code the page shows beside the link.
      startUrl: (_code, settings) => settings.line?.addFriendUrl ?? '',
    },

    async send(destination, message, settings, context) {
      const line = settings.line;
      const to = destination.credentials.to;
      if (!line) return { kind: 'retry', afterMs: TOKEN_RETRY_MS, reason: 'LINE is not set up in this run' };
      if (!to) return { kind: 'refused', reason: 'the LINE link has no chat to post to' };
      return push(line, to, lineMessages(message), lineRetryKey(context.deliveryId));
    },

    async inbound(request, settings) {
      const line = settings.line;
      if (!line) return { kind: 'rejected', reason: 'LINE is not set up in this run' };
      if (!validLineSignature(line.channelSecret, request.rawBody, header(request, 'x-line-signature'))) {
        return { kind: 'rejected', reason: 'bad signature' };
      }
      let events: LineEvent[];
      try {
        const parsed = JSON.parse(request.rawBody.toString('utf8')) as { events?: unknown };
        if (!Array.isArray(parsed.events)) return { kind: 'rejected', reason: 'not a webhook body' };
        events = parsed.events as LineEvent[];
      } catch {
        return { kind: 'rejected', reason: 'not a webhook body' };
      }
      // LINE's "verify" button in the console sends no events, signed: it must be answered 200.
      if (events.length === 0) return { kind: 'accepted', events: [] };
      const fresh = events.filter(
        (event) => isFresh(event, request) && !seen.has(String(event.webhookEventId)),
      );
      if (fresh.length === 0) return { kind: 'rejected', reason: 'stale or replayed events' };
      for (const event of fresh) seen.add(String(event.webhookEventId));

      const replyTokens = new Map<InboundEvent, string>();
      const read: InboundEvent[] = [];
      for (const event of fresh) {
        const found = readEvent(event);
        if (!found) continue;
        read.push(found);
        if (typeof event.replyToken === 'string' && found.kind === 'link')
          replyTokens.set(found, event.replyToken);
      }
      return {
        kind: 'accepted',
        events: read,
        reply: async (event, linked) => {
          const replyToken = replyTokens.get(event);
          if (replyToken) await reply(line, replyToken, linked ? LINKED_TEXT : UNKNOWN_CODE_TEXT);
        },
      };
    },
  };
}

/** The reply to a code; LINE tells the bot no language, so both. */
const LINKED_TEXT =
  'Mimamori と連携しました。更新のお知らせはこのトークに届きます。\nLinked to Mimamori: updates will arrive in this chat.';
const UNKNOWN_CODE_TEXT =
  'このコードは見つからないか、期限が切れています。Mimamori の画面に出ている新しいコードを送ってください。\nThat code is unknown or has expired: send the new code shown in Mimamori.';

function isFresh(event: LineEvent, request: InboundRequest): boolean {
  if (typeof event.webhookEventId !== 'string' || typeof event.timestamp !== 'number') return false;
  return event.timestamp >= (request.nowSeconds - LINE_EVENT_MAX_AGE_SECONDS) * 1000;
}

function readEvent(event: LineEvent): InboundEvent | null {
  const source = event.source ?? {};
  const chat = chatOf(source);
  if (!chat) return null;
  if (event.type === 'message' && event.message?.type === 'text' && typeof event.message.text === 'string') {
    const code = event.message.text.normalize('NFKC').trim();
    if (!CODE.test(code)) return null;
    return { kind: 'link', code, credentials: { to: chat.to }, label: chat.label };
  }
  if (event.type === 'unfollow' && source.type === 'user') {
    return { kind: 'dead', match: { to: chat.to }, reason: 'line_blocked' };
  }
  if (event.type === 'leave') {
    return { kind: 'dead', match: { to: chat.to }, reason: 'line_removed_from_group' };
  }
  // `follow` (befriended or unblocked) links nothing: the code that follows does.
  return null;
}

/** Where a message from this source is pushed back to, and a name for it (LINE tells no display name). */
function chatOf(source: NonNullable<LineEvent['source']>): { to: string; label: string } | null {
  const pick = (id: unknown, name: string) =>
    typeof id === 'string' && id !== '' ? { to: id, label: `${name} …${id.slice(-4)}` } : null;
  if (source.type === 'user') return pick(source.userId, 'LINE user');
  if (source.type === 'group') return pick(source.groupId, 'LINE group');
  if (source.type === 'room') return pick(source.roomId, 'LINE room');
  return null;
}

async function push(
  line: LineSettings,
  to: string,
  messages: LineMessage[],
  retryKey: string,
): Promise<ChatOutcome> {
  let response: Response;
  try {
    response = await fetch(`${line.apiBase.replace(/\/$/, '')}/v2/bot/message/push`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${line.channelAccessToken}`,
        'content-type': 'application/json',
        'x-line-retry-key': retryKey,
      },
      body: JSON.stringify({ to, messages }),
      redirect: 'error',
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    return { kind: 'retry', afterMs: null, reason: `LINE did not answer (${(error as Error).name})` };
  }
  const said = lineErrorMessage(await response.text().catch(() => ''));
  if (response.ok) return { kind: 'sent' };
  // An earlier try with this retry key went through (LINE answers 409 to the repeat).
  if (response.status === 409) return { kind: 'sent' };
  if (response.status === 429) {
    // LINE answers 429 for its rate and concurrency limits and for a used-up month alike; only the body tells.
    if (/monthly limit|additional messages/i.test(said)) {
      return {
        kind: 'retry',
        afterMs: QUOTA_RETRY_MS,
        reason: `LINE message quota used up for the month: ${said}`,
      };
    }
    return {
      kind: 'retry',
      afterMs: retryAfterMs(response) ?? RATE_LIMITED_RETRY_MS,
      reason: `LINE 429: ${said}`,
    };
  }
  if (response.status === 401) {
    return {
      kind: 'retry',
      afterMs: TOKEN_RETRY_MS,
      reason:
        'LINE refused the channel access token (401): every LINE link waits until LINE_CHANNEL_ACCESS_TOKEN is fixed',
    };
  }
  if (response.status === 403) return { kind: 'dead', reason: 'line_forbidden' };
  if (response.status === 400 && /failed to send messages/i.test(said)) {
    return { kind: 'dead', reason: 'line_user_not_found' };
  }
  if (response.status >= 500) return { kind: 'retry', afterMs: null, reason: `LINE ${response.status}` };
  return { kind: 'refused', reason: `LINE ${response.status}: ${said}` };
}

async function reply(line: LineSettings, replyToken: string, text: string): Promise<void> {
  // A reply token is good once and for about a minute; a lost reply is only a lost courtesy.
  await fetch(`${line.apiBase.replace(/\/$/, '')}/v2/bot/message/reply`, {
    method: 'POST',
    headers: { authorization: `Bearer ${line.channelAccessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ replyToken, messages: [{ type: 'text', text }] }),
    redirect: 'error',
    signal: AbortSignal.timeout(10_000),
  }).catch(() => undefined);
}

/** LINE's error body is `{ message, details? }`; only the message, never the request, goes into a reason. */
function lineErrorMessage(body: string): string {
  try {
    const message = (JSON.parse(body) as { message?: unknown }).message;
    return typeof message === 'string' ? message.slice(0, 200) : '';
  } catch {
    return '';
  }
}

function retryAfterMs(response: Response): number | null {
  const seconds = Number(response.headers.get('retry-after'));
  return response.headers.has('retry-after') && Number.isFinite(seconds) && seconds >= 0
    ? seconds * 1000
    : null;
}

function header(request: InboundRequest, name: string): string | undefined {
  const found = Object.entries(request.headers).find(([key]) => key.toLowerCase() === name);
  return found?.[1];
}
