import type {
  ChatAdapter,
  ChatImage,
  ChatOutcome,
  ChatPlatformSettings,
  ChatMessage as PortMessage,
} from '../port.ts';
import { chatworkBody, chatworkFileMessage } from './chatwork-message.ts';

export const CHATWORK_API_BASE = 'https://api.chatwork.com';
/** One file per request, at most 5 MB (docs/channels.md#chatwork). */
export const CHATWORK_FILE_LIMIT = 5 * 1024 * 1024;
/** The per-room window (10 posts per 10 s): what a 429 without a reset header waits. */
const ROOM_WINDOW_MS = 10_000;
const TIMEOUT_MS = 15_000;

/**
 * Chatwork (API v2) with the user's API token and room id. A message is one POST of its text in
 * Chatwork notation, then one upload per picture. A 429 before the text went is tried again
 * after the platform's reset; once the text is in the room, a picture that meets a 429 waits the
 * reset once here and is otherwise left out, so a retry never posts the text twice.
 * 401 "Invalid API token" and a room that answers 403/404 mean the link is dead.
 */
export interface ChatworkAdapterOptions {
  /** Injected for tests: waits the platform's reset between a text and its pictures. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export function chatworkAdapter(options: ChatworkAdapterOptions = {}): ChatAdapter {
  const sleep = options.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  return {
    platform: 'chatwork',
    enabled: (settings) => settings.chatwork !== undefined,
    linking: {
      kind: 'fields',
      fields: [
        { name: 'apiToken', secret: true },
        { name: 'roomId', secret: false },
      ],
      async validate(input, settings) {
        const apiToken = (input.apiToken ?? '').trim();
        if (!/^[A-Za-z0-9]{16,128}$/.test(apiToken)) {
          return { ok: false, field: 'apiToken', reason: 'chatwork_token_invalid' };
        }
        const roomId = chatworkRoomId(input.roomId ?? '');
        if (!roomId) return { ok: false, field: 'roomId', reason: 'chatwork_room_invalid' };
        let answer: Response;
        try {
          answer = await fetch(`${apiBase(settings)}/v2/rooms/${roomId}`, {
            headers: { 'x-chatworktoken': apiToken },
            signal: AbortSignal.timeout(TIMEOUT_MS),
          });
        } catch {
          return { ok: false, field: '', reason: 'platform_unreachable' };
        }
        if (answer.status === 401) return { ok: false, field: 'apiToken', reason: 'chatwork_token_invalid' };
        if (answer.status === 403 || answer.status === 404) {
          return { ok: false, field: 'roomId', reason: 'chatwork_room_not_found' };
        }
        if (!answer.ok) return { ok: false, field: '', reason: 'platform_unreachable' };
        const room = (await answer.json().catch(() => ({}))) as { name?: unknown };
        const name = typeof room.name === 'string' && room.name.trim() ? room.name.trim() : `#${roomId}`;
        return { ok: true, credentials: { apiToken, roomId }, label: name.slice(0, 100) };
      },
    },
    async send(destination, message, settings) {
      const { apiToken, roomId } = destination.credentials;
      if (!apiToken || !roomId) return { kind: 'dead', reason: 'chatwork credentials incomplete' };
      const base = `${apiBase(settings)}/v2/rooms/${encodeURIComponent(roomId)}`;
      const text = await post(
        `${base}/messages`,
        apiToken,
        new URLSearchParams({ body: chatworkBody(message) }),
      );
      if (text.kind !== 'sent') return text;
      for (const image of message.images) {
        if (image.data.length > CHATWORK_FILE_LIMIT) continue;
        let outcome = await post(`${base}/files`, apiToken, fileForm(image, message));
        if (outcome.kind === 'retry' && outcome.afterMs !== null && outcome.afterMs <= ROOM_WINDOW_MS) {
          await sleep(outcome.afterMs);
          outcome = await post(`${base}/files`, apiToken, fileForm(image, message));
        }
        // The text went: a dead room stops the pictures and the next message will find it dead.
        if (outcome.kind === 'dead') return outcome;
      }
      return { kind: 'sent' };
    },
  };

  async function post(url: string, apiToken: string, body: URLSearchParams | FormData): Promise<ChatOutcome> {
    let answer: Response;
    try {
      answer = await fetch(url, {
        method: 'POST',
        headers: { 'x-chatworktoken': apiToken },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      return { kind: 'retry', afterMs: null, reason: error instanceof Error ? error.name : 'no answer' };
    }
    const errors = await answer.text().catch(() => '');
    if (answer.ok) return { kind: 'sent' };
    if (answer.status === 401) return { kind: 'dead', reason: 'chatwork_token_revoked' };
    if (answer.status === 403 || answer.status === 404) return { kind: 'dead', reason: 'chatwork_room_gone' };
    if (answer.status === 429) {
      return { kind: 'retry', afterMs: resetAfter(answer.headers, now()), reason: 'chatwork 429' };
    }
    if (answer.status >= 500) return { kind: 'retry', afterMs: null, reason: `chatwork ${answer.status}` };
    return { kind: 'refused', reason: `chatwork ${answer.status} ${errors.slice(0, 200)}` };
  }
}

/** A room id as typed, or the number after `#!rid` in a pasted Chatwork address. */
export function chatworkRoomId(input: string): string | null {
  const trimmed = input.trim();
  const fromUrl = /#!rid(\d+)/.exec(trimmed)?.[1];
  const id = fromUrl ?? trimmed;
  return /^\d{1,20}$/.test(id) ? id : null;
}

/** x-ratelimit-reset is the epoch second the window reopens; Retry-After in seconds where given. */
function resetAfter(headers: Headers, nowMs: number): number {
  const reset = Number(headers.get('x-ratelimit-reset'));
  if (Number.isFinite(reset) && reset > 0) return Math.max(1_000, reset * 1_000 - nowMs);
  const retryAfter = Number(headers.get('retry-after'));
  if (Number.isFinite(retryAfter) && retryAfter > 0) return retryAfter * 1_000;
  return ROOM_WINDOW_MS;
}

function apiBase(settings: ChatPlatformSettings): string {
  return (settings.chatwork?.apiBase || CHATWORK_API_BASE).replace(/\/+$/, '');
}

function fileForm(image: ChatImage, message: PortMessage): FormData {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(image.data)], { type: image.contentType }), image.filename);
  form.set('message', chatworkFileMessage(image.role, message.lang));
  return form;
}
