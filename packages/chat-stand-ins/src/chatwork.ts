import { createHash } from 'node:crypto';
import { escapeHtml } from '@mimamori/mail/html-escape';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StandIn, StandInRecord } from './stand-in.ts';

/** Chatwork's documented limits (docs/channels.md#chatwork). */
const BODY_MAX = 65_535;
const FILE_MAX = 5 * 1024 * 1024;
const TOKEN_LIMIT = { count: 300, windowMs: 5 * 60_000 };
const ROOM_LIMIT = { count: 10, windowMs: 10_000 };

export interface ChatworkStandInLimits {
  /** Per token: 300 requests per 5 minutes. */
  token?: { count: number; windowMs: number };
  /** Per room: 10 posts per 10 s. A test shortens the window so a 429's wait stays short. */
  room?: { count: number; windowMs: number };
}

interface ChatworkState {
  /** SHA-256 of the tokens the person revoked on the page; the tokens themselves are never kept. */
  revoked: string[];
  /** Tokens seen, as their hash and last four characters, so the page can offer to revoke them. */
  seen: { hash: string; hint: string }[];
}

const PLATFORM = 'chatwork';
const EMPTY: ChatworkState = { revoked: [], seen: [] };

/**
 * Chatwork's API v2 as the product uses it: GET /v2/rooms/{id}, POST …/messages (form body 1–65,535
 * characters) and POST …/files (multipart, one file ≤ 5 MB), behind `x-chatworktoken`. Any token
 * of letters and digits is taken until the person revokes it on the page (401 "Invalid API token",
 * as Chatwork answers); any numeric room exists. Both rate limits answer 429 with the
 * x-ratelimit-* headers. The page lists what was posted, pictures included.
 */
export function chatworkStandIn(limits: ChatworkStandInLimits = {}): StandIn {
  const tokenLimit = limits.token ?? TOKEN_LIMIT;
  const roomLimit = limits.room ?? ROOM_LIMIT;
  return (app, prefix, options) => {
    const now = options.now ?? Date.now;
    const windows = new Map<string, number[]>();
    const state = () => options.store.readState<ChatworkState>(PLATFORM, EMPTY);

    /** Counts one request in a sliding window; the epoch second it reopens when full, else null. */
    const take = (key: string, limit: { count: number; windowMs: number }) => {
      const at = now();
      const recent = (windows.get(key) ?? []).filter((time) => time > at - limit.windowMs);
      windows.set(key, recent);
      if (recent.length >= limit.count) {
        return { full: true, reset: Math.ceil(((recent[0] ?? at) + limit.windowMs) / 1_000), left: 0 };
      }
      recent.push(at);
      return {
        full: false,
        reset: Math.ceil(((recent[0] ?? at) + limit.windowMs) / 1_000),
        left: limit.count - recent.length,
      };
    };

    /** The token check and its rate limit, as every API call starts; null when already answered. */
    const admit = async (request: FastifyRequest, reply: FastifyReply): Promise<string | null> => {
      const token = String(request.headers['x-chatworktoken'] ?? '');
      const hash = sha256(token);
      const current = await state();
      if (!/^[A-Za-z0-9]{16,128}$/.test(token) || current.revoked.includes(hash)) {
        await reply.code(401).send({ errors: ['Invalid API token'] });
        return null;
      }
      if (!current.seen.some((seen) => seen.hash === hash)) {
        current.seen.push({ hash, hint: token.slice(-4) });
        await options.store.writeState(PLATFORM, current);
      }
      const window = take(`token:${hash}`, tokenLimit);
      reply.header('x-ratelimit-limit', String(tokenLimit.count));
      reply.header('x-ratelimit-remaining', String(window.left));
      reply.header('x-ratelimit-reset', String(window.reset));
      if (window.full) {
        await reply.code(429).send({ errors: ['Rate limit exceeded.'] });
        return null;
      }
      return hash;
    };

    const room = (request: FastifyRequest<{ Params: { roomId: string } }>) =>
      /^\d{1,20}$/.test(request.params.roomId) ? request.params.roomId : null;

    const roomWindow = async (roomId: string, reply: FastifyReply) => {
      const window = take(`room:${roomId}`, roomLimit);
      if (!window.full) return true;
      reply.header('x-ratelimit-reset', String(window.reset));
      await reply.code(429).send({ errors: ['Rate limit for message posting per room exceeded.'] });
      return false;
    };

    app.register(async (scope) => {
      scope.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string' },
        (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
      );
      scope.addContentTypeParser(
        'multipart/form-data',
        { parseAs: 'buffer', bodyLimit: FILE_MAX * 2 },
        (_request, body, done) => done(null, body),
      );

      scope.get<{ Params: { roomId: string } }>(`${prefix}/v2/rooms/:roomId`, async (request, reply) => {
        if (!(await admit(request, reply))) return reply;
        const roomId = room(request);
        if (!roomId) return reply.code(404).send({ errors: ['Resource not found'] });
        return { room_id: Number(roomId), name: `Room ${roomId}`, type: 'group', role: 'member' };
      });

      scope.post<{ Params: { roomId: string } }>(
        `${prefix}/v2/rooms/:roomId/messages`,
        async (request, reply) => {
          if (!(await admit(request, reply))) return reply;
          const roomId = room(request);
          if (!roomId) return reply.code(404).send({ errors: ['Resource not found'] });
          const fields = (request.body ?? {}) as Record<string, string>;
          const body = typeof fields.body === 'string' ? fields.body : '';
          const length = Array.from(body).length;
          if (length < 1 || length > BODY_MAX) {
            return reply
              .code(400)
              .send({ errors: [`Parameter 'body' must be 1 to ${BODY_MAX} characters.`] });
          }
          if (!(await roomWindow(roomId, reply))) return reply;
          const saved = await options.store.add(PLATFORM, {
            at: new Date(now()).toISOString(),
            chat: roomId,
            body: { body },
            files: [],
          });
          return { message_id: String(saved.id) };
        },
      );

      scope.post<{ Params: { roomId: string } }>(
        `${prefix}/v2/rooms/:roomId/files`,
        { bodyLimit: FILE_MAX * 2 },
        async (request, reply) => {
          if (!(await admit(request, reply))) return reply;
          const roomId = room(request);
          if (!roomId) return reply.code(404).send({ errors: ['Resource not found'] });
          const form = Buffer.isBuffer(request.body)
            ? await new Response(new Uint8Array(request.body), {
                headers: { 'content-type': String(request.headers['content-type']) },
              })
                .formData()
                .catch(() => null)
            : null;
          const file = form?.get('file');
          if (!form || !file || typeof file === 'string') {
            return reply.code(400).send({ errors: ["Parameter 'file' is required."] });
          }
          if (file.size > FILE_MAX) return reply.code(400).send({ errors: ['File size is too large.'] });
          if (form.getAll('file').length > 1) {
            return reply.code(400).send({ errors: ['Only one file can be uploaded at a time.'] });
          }
          if (!(await roomWindow(roomId, reply))) return reply;
          const saved = await options.store.add(PLATFORM, {
            at: new Date(now()).toISOString(),
            chat: roomId,
            body: { message: String(form.get('message') ?? '') },
            files: [
              {
                filename: file.name,
                contentType: file.type || 'application/octet-stream',
                data: Buffer.from(await file.arrayBuffer()),
              },
            ],
          });
          return { file_id: saved.id };
        },
      );

      scope.get(prefix, async (_request, reply) =>
        reply
          .type('text/html; charset=utf-8')
          .header(
            'content-security-policy',
            "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; form-action 'self'",
          )
          .send(page(prefix, await options.store.list(PLATFORM), await state())),
      );

      scope.get<{ Params: { id: string; index: string } }>(
        `${prefix}/records/:id/files/:index`,
        async (request, reply) => {
          const record = (await options.store.list(PLATFORM)).find(
            (candidate) => String(candidate.id) === request.params.id,
          );
          const file = record?.files[Number(request.params.index)];
          if (!file) return reply.code(404).send({ errors: ['Resource not found'] });
          return reply.type(file.contentType).header('x-content-type-options', 'nosniff').send(file.data);
        },
      );

      // The person revokes a token on the page, as on Chatwork's API settings: the next call is refused.
      scope.post(`${prefix}/revoke`, async (request, reply) => {
        const hash = String(((request.body ?? {}) as Record<string, string>).token ?? '');
        const current = await state();
        if (current.seen.some((seen) => seen.hash === hash) && !current.revoked.includes(hash)) {
          current.revoked.push(hash);
          await options.store.writeState(PLATFORM, current);
        }
        return reply.redirect(prefix, 303);
      });
    });
  };
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Chatwork notation as the room shows it, after escaping: info boxes, titles and rules. */
function rendered(body: string): string {
  return escapeHtml(body)
    .replace(/\[info\]/g, '<div class="info">')
    .replace(/\[\/info\]/g, '</div>')
    .replace(/\[title\]/g, '<strong class="title">')
    .replace(/\[\/title\]/g, '</strong>')
    .replace(/\[hr\]/g, '<hr>');
}

function page(prefix: string, records: StandInRecord[], state: ChatworkState): string {
  const items = records
    .map((record) => {
      const { body, message } = record.body as { body?: string; message?: string };
      const files = record.files
        .map(
          (file, index) =>
            `<figure><img src="${prefix}/records/${record.id}/files/${index}" alt="${escapeHtml(file.filename)}" width="320"><figcaption>${escapeHtml(message ?? '')} ${escapeHtml(file.filename)}</figcaption></figure>`,
        )
        .join('');
      return `<li class="record" data-room="${escapeHtml(record.chat)}"><p class="meta">Room ${escapeHtml(record.chat)} · ${escapeHtml(record.at)}</p>${body !== undefined ? `<div class="body">${rendered(body)}</div>` : ''}${files}</li>`;
    })
    .join('');
  const tokens = state.seen
    .map((token) => {
      const revoked = state.revoked.includes(token.hash);
      return `<li>API token …${escapeHtml(token.hint)} ${
        revoked
          ? '<span>(revoked)</span>'
          : `<form method="post" action="${prefix}/revoke"><input type="hidden" name="token" value="${token.hash}"><button type="submit">Revoke token …${escapeHtml(token.hint)}</button></form>`
      }</li>`;
    })
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Chatwork stand-in</title><style>
body{font-family:system-ui,sans-serif;margin:1rem;max-width:60rem;color:#222}
ul{list-style:none;padding:0}.record{border-bottom:1px solid #ccc;padding:.5rem 0}
.info{border:1px solid #c7d6e6;background:#f4f8fc;padding:.5rem;white-space:pre-wrap;overflow-wrap:anywhere}
.title{display:block;margin-bottom:.25rem}.meta{color:#555;font-size:.85rem;margin:0}
img{max-width:100%;height:auto;border:1px solid #ddd}form{display:inline}
</style></head><body><main><h1>Chatwork stand-in</h1>
<p>What the product posted to Chatwork rooms. Link Chatwork with any API token of 16 or more letters and digits and any room number.</p>
<h2>API tokens</h2><ul class="tokens">${tokens || '<li>No token used yet.</li>'}</ul>
<h2>Messages</h2><ul class="records">${items || '<li>No message yet.</li>'}</ul></main></body></html>`;
}
