import { timingSafeEqual } from 'node:crypto';
import type {
  ChatAdapter,
  ChatMessage,
  ChatOutcome,
  ChatPlatformSettings,
  InboundEvent,
  InboundRequest,
} from '../port.ts';
import { SeenSet } from '../seen-set.ts';
import { type TelegramPhoto, telegramPhotos, telegramText } from './telegram-message.ts';

/** A deep link's start parameter (core.telegram.org/bots/features#deep-linking). */
export const TELEGRAM_START_CODE = /^[A-Za-z0-9_-]{1,64}$/;
/** A refused bot token is the product's to fix, for every user at once. */
const TOKEN_RETRY_MS = 15 * 60 * 1000;
/**
 * Once the text is out, a 429 on the pictures is waited out here (Telegram says how long) rather
 * than handed back: a retry of the whole send would post the text twice. Pictures that would
 * wait longer are left out.
 */
const LONGEST_WAIT_IN_SEND_MS = 30_000;
const TRIES_PER_PART = 3;

type TelegramSettings = NonNullable<ChatPlatformSettings['telegram']>;

/** The Bot API's answer (core.telegram.org/bots/api#making-requests). */
interface BotApiAnswer {
  ok?: boolean;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

interface TelegramChat {
  id?: unknown;
  type?: unknown;
  title?: unknown;
  username?: unknown;
  first_name?: unknown;
  last_name?: unknown;
}

interface TelegramUpdate {
  update_id?: unknown;
  message?: {
    chat?: TelegramChat;
    text?: unknown;
    from?: { language_code?: unknown };
    migrate_to_chat_id?: unknown;
  };
  my_chat_member?: { chat?: TelegramChat; new_chat_member?: { status?: unknown } };
}

export interface TelegramAdapterOptions {
  /** Waits out a 429 within a send; injected so tests do not wait on the wall clock. */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Telegram (docs/channels.md#telegram): the product runs one bot. A user opens the deep link
 * `t.me/<bot>?start=<code>` and presses Start; the bot receives `/start <code>` with the chat,
 * stored as `{ chatId }`. Updates go out as an HTML text message, then the pictures uploaded
 * (one photo, or an album of 2–10).
 */
export function telegramAdapter(options: TelegramAdapterOptions = {}): ChatAdapter {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const seen = new SeenSet();

  return {
    platform: 'telegram',
    enabled: (settings) => Boolean(settings.telegram?.botToken && settings.telegram.webhookSecret),
    linking: {
      kind: 'code',
      startUrl: (code, settings) => {
        const telegram = settings.telegram;
        if (!telegram || !TELEGRAM_START_CODE.test(code)) return '';
        return `${telegram.deepLinkBase.replace(/\/$/, '')}/${telegram.botUsername}?start=${code}`;
      },
    },

    async send(destination, message, settings) {
      const telegram = settings.telegram;
      const chatId = destination.credentials.chatId;
      if (!telegram)
        return { kind: 'retry', afterMs: TOKEN_RETRY_MS, reason: 'Telegram is not set up in this run' };
      if (!chatId) return { kind: 'refused', reason: 'the Telegram link has no chat to post to' };
      return sendAll(telegram, chatId, message, sleep);
    },

    async inbound(request, settings) {
      const telegram = settings.telegram;
      if (!telegram) return { kind: 'rejected', reason: 'Telegram is not set up in this run' };
      if (!sameSecret(header(request, 'x-telegram-bot-api-secret-token'), telegram.webhookSecret)) {
        return { kind: 'rejected', reason: 'bad secret token' };
      }
      let update: TelegramUpdate;
      try {
        update = JSON.parse(request.rawBody.toString('utf8')) as TelegramUpdate;
      } catch {
        return { kind: 'rejected', reason: 'not an update' };
      }
      if (typeof update?.update_id !== 'number') return { kind: 'rejected', reason: 'not an update' };
      const id = String(update.update_id);
      if (seen.has(id)) return { kind: 'rejected', reason: 'replayed update' };
      seen.add(id);

      const event = readUpdate(update, telegram);
      const lang = update.message?.from?.language_code;
      return {
        kind: 'accepted',
        events: event ? [event] : [],
        reply: async (answered, linked) => {
          if (answered.kind !== 'link' || !answered.credentials.chatId) return;
          const ja = typeof lang !== 'string' || lang.startsWith('ja');
          const text = linked ? (ja ? LINKED.ja : LINKED.en) : ja ? UNKNOWN_CODE.ja : UNKNOWN_CODE.en;
          await callBotApi(
            telegram,
            'sendMessage',
            JSON.stringify({ chat_id: answered.credentials.chatId, text }),
          ).catch(() => undefined);
        },
      };
    },
  };
}

const LINKED = {
  ja: 'Mimamori と連携しました。更新のお知らせはこのチャットに届きます。',
  en: 'Linked to Mimamori: updates will arrive in this chat.',
};
const UNKNOWN_CODE = {
  ja: 'このリンクは見つからないか、期限が切れています。Mimamori の画面から新しいリンクを開いてください。',
  en: 'That link is unknown or has expired: open a new one from Mimamori.',
};

function readUpdate(update: TelegramUpdate, telegram: TelegramSettings): InboundEvent | null {
  const message = update.message;
  const chatId = chatIdOf(message?.chat ?? update.my_chat_member?.chat);
  if (!chatId) return null;
  if (message && typeof message.migrate_to_chat_id === 'number') {
    return { kind: 'moved', match: { chatId }, credentials: { chatId: String(message.migrate_to_chat_id) } };
  }
  if (message && typeof message.text === 'string') {
    // `/start <code>`, or `/start@<bot> <code>` in a group with several bots.
    const start = /^\/start(?:@([A-Za-z0-9_]+))?\s+(\S+)\s*$/.exec(message.text);
    if (!start?.[2] || !TELEGRAM_START_CODE.test(start[2])) return null;
    if (start[1] && start[1].toLowerCase() !== telegram.botUsername.toLowerCase()) return null;
    return { kind: 'link', code: start[2], credentials: { chatId }, label: labelOf(message.chat ?? {}) };
  }
  const status = update.my_chat_member?.new_chat_member?.status;
  if (status === 'kicked' || status === 'left') {
    // In a private chat the bot is "kicked" when the user blocks it.
    const reason =
      update.my_chat_member?.chat?.type === 'private' ? 'telegram_blocked' : 'telegram_removed_from_chat';
    return { kind: 'dead', match: { chatId }, reason };
  }
  return null;
}

function chatIdOf(chat: TelegramChat | undefined): string | null {
  return typeof chat?.id === 'number' || typeof chat?.id === 'string' ? String(chat.id) : null;
}

/** A group's title, else the user's @name, else their name. */
function labelOf(chat: TelegramChat): string {
  if (typeof chat.title === 'string' && chat.title !== '') return chat.title;
  if (typeof chat.username === 'string' && chat.username !== '') return `@${chat.username}`;
  const name = [chat.first_name, chat.last_name]
    .filter((part) => typeof part === 'string' && part !== '')
    .join(' ');
  return name || 'Telegram';
}

async function sendAll(
  telegram: TelegramSettings,
  storedChatId: string,
  message: ChatMessage,
  sleep: (ms: number) => Promise<void>,
): Promise<ChatOutcome> {
  // A group that became a supergroup answers with its new id; the rest of this send goes there.
  // The stored chat follows when Telegram's own `migrate_to_chat_id` update arrives (inbound).
  let chatId = storedChatId;
  const text = telegramText(message);
  const parts: Array<{ method: string; body: (chat: string) => FormData | string }> = [
    {
      method: 'sendMessage',
      body: (chat) =>
        JSON.stringify({
          chat_id: chat,
          text,
          parse_mode: 'HTML',
          link_preview_options: { is_disabled: true },
        }),
    },
  ];
  const photos = telegramPhotos(message);
  if (photos.length === 1) parts.push({ method: 'sendPhoto', body: (chat) => photoForm(chat, photos) });
  if (photos.length > 1) parts.push({ method: 'sendMediaGroup', body: (chat) => albumForm(chat, photos) });

  for (const [index, { method, body }] of parts.entries()) {
    for (let attempt = 1; ; attempt++) {
      const answer = await callBotApi(telegram, method, body(chatId)).catch(
        (error: Error): BotApiAnswer => ({ ok: false, error_code: 0, description: error.name }),
      );
      if (answer.ok) break;
      const migrated = answer.parameters?.migrate_to_chat_id;
      if (answer.error_code === 400 && typeof migrated === 'number' && attempt < TRIES_PER_PART) {
        chatId = String(migrated);
        continue;
      }
      const outcome = outcomeOf(method, answer);
      if (index === 0 || outcome.kind === 'dead') return outcome;
      // The text is in the chat: a 429 on the pictures is waited out as Telegram asks, and
      // pictures that still do not go are left out rather than the whole message sent again.
      if (outcome.kind === 'retry' && answer.error_code === 429 && attempt < TRIES_PER_PART) {
        const waitMs = outcome.afterMs ?? 1_000;
        if (waitMs <= LONGEST_WAIT_IN_SEND_MS) {
          await sleep(waitMs);
          continue;
        }
      }
      break;
    }
  }
  return { kind: 'sent' };
}

/** What a refusal of the Bot API means for the link (docs/channels.md#telegram). */
function outcomeOf(method: string, answer: BotApiAnswer): ChatOutcome {
  const code = answer.error_code ?? 0;
  const said = (answer.description ?? '').slice(0, 200);
  if (code === 429) {
    const waitMs = Math.max(1, answer.parameters?.retry_after ?? 1) * 1000;
    return { kind: 'retry', afterMs: waitMs, reason: `Telegram 429 on ${method}` };
  }
  if (code === 403) return { kind: 'dead', reason: deadReason(said) };
  if (code === 400 && /chat not found/i.test(said))
    return { kind: 'dead', reason: 'telegram_chat_not_found' };
  if (code === 401 || code === 404) {
    return {
      kind: 'retry',
      afterMs: TOKEN_RETRY_MS,
      reason: `Telegram refused the bot token (${code}): check TELEGRAM_BOT_TOKEN`,
    };
  }
  if (code === 0 || code >= 500)
    return { kind: 'retry', afterMs: null, reason: `Telegram ${method}: ${said || code}` };
  return { kind: 'refused', reason: `Telegram ${code} on ${method}: ${said}` };
}

/**
 * A dead chat named by a code, as the account page and the broken-link mail put it in words
 * (blocked or removed: "gone"); Telegram's 403 says which in its description.
 */
function deadReason(description: string): string {
  if (/blocked by the user/i.test(description)) return 'telegram_blocked';
  if (/kicked|not a member/i.test(description)) return 'telegram_removed_from_chat';
  if (/deactivated/i.test(description)) return 'telegram_user_gone';
  return 'telegram_forbidden';
}

function photoForm(chatId: string, photos: TelegramPhoto[]): FormData {
  const form = new FormData();
  form.append('chat_id', chatId);
  const [photo] = photos;
  if (photo) {
    form.append('caption', photo.caption);
    form.append('photo', blobOf(photo), photo.image.filename);
  }
  return form;
}

function albumForm(chatId: string, photos: TelegramPhoto[]): FormData {
  const form = new FormData();
  form.append('chat_id', chatId);
  form.append(
    'media',
    JSON.stringify(
      photos.map((photo) => ({ type: 'photo', media: `attach://${photo.field}`, caption: photo.caption })),
    ),
  );
  for (const photo of photos) form.append(photo.field, blobOf(photo), photo.image.filename);
  return form;
}

function blobOf(photo: TelegramPhoto): Blob {
  return new Blob([new Uint8Array(photo.image.data)], { type: photo.image.contentType });
}

/**
 * One Bot API call. The bot token is in the URL's path, so neither the URL nor an error that
 * could quote it ever leaves this function: failures are told by the error's name only.
 */
async function callBotApi(
  telegram: TelegramSettings,
  method: string,
  body: FormData | string,
): Promise<BotApiAnswer> {
  let response: Response;
  try {
    response = await fetch(`${telegram.apiBase.replace(/\/$/, '')}/bot${telegram.botToken}/${method}`, {
      method: 'POST',
      headers: typeof body === 'string' ? { 'content-type': 'application/json' } : {},
      body,
      redirect: 'error',
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new NetworkError((error as Error).name || 'network error');
  }
  const text = await response.text().catch(() => '');
  try {
    return JSON.parse(text) as BotApiAnswer;
  } catch {
    return { ok: response.ok, error_code: response.status, description: `HTTP ${response.status}` };
  }
}

class NetworkError extends Error {
  override name = 'NetworkError';
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (!given || expected === '') return false;
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

function header(request: InboundRequest, name: string): string | undefined {
  return Object.entries(request.headers).find(([key]) => key.toLowerCase() === name)?.[1];
}
