import { isIP } from 'node:net';
import type { StandInRecord, StandInStore } from '@mimamori/chat-stand-ins';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendApiError } from './api-error.ts';
import { type PostedDiscordMessage, renderDiscordStandInPage } from './discord-stand-in-page.ts';

export const DISCORD_STAND_IN_PATH = '/dev/discord';
/** Its records' platform name in the stand-ins' store. */
const PLATFORM = 'discord';
/** Discord's own upload limit for a webhook message. */
const BODY_LIMIT = 25 * 1024 * 1024;

/**
 * A local stand-in for Discord's execute-webhook endpoint in the single-process mode: what the
 * product would post (update messages, the link's test message) is kept and shown at
 * /dev/discord instead of going to Discord. The account and notifier services post to
 * `<product>/dev/discord/api/webhooks/<id>/<token>` when their Discord API base points here.
 * Served only to loopback peers, and only registered when the product listens on loopback only.
 * What it received is kept in the stand-ins' store (the newest 100), which in the single-process
 * product is a folder in its data folder, so the page shows the same messages after a restart.
 */
export function discordStandInRoutes(app: FastifyInstance, store: StandInStore): void {
  app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      if (!fromLoopback(request)) return sendApiError(reply, 404, 'not_found');
    });
    // Only here: the rest of the gateway takes no multipart bodies.
    scope.addContentTypeParser(
      'multipart/form-data',
      { parseAs: 'buffer', bodyLimit: BODY_LIMIT },
      (_r, body, done) => done(null, body),
    );

    scope.post<{ Params: { id: string; token: string } }>(
      `${DISCORD_STAND_IN_PATH}/api/webhooks/:id/:token`,
      // The product's own services post here as they would to Discord, without the SPA's CSRF
      // token; only loopback callers are let in (above).
      { bodyLimit: BODY_LIMIT, config: { otherSiteMayPost: true } },
      async (request, reply) => {
        const message = await readExecuteWebhook(request);
        if (!message) return reply.code(400).send({ message: 'Cannot send an empty message', code: 50006 });
        const kept = await store.add(PLATFORM, {
          at: new Date().toISOString(),
          chat: request.params.id,
          body: message.payload,
          files: message.files,
        });
        // What Discord answers with ?wait=true: the message it created.
        return reply.send({ id: String(kept.id), webhook_id: request.params.id });
      },
    );

    scope.get(DISCORD_STAND_IN_PATH, async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'")
        .send(
          renderDiscordStandInPage((await store.list(PLATFORM)).map(postedMessage), DISCORD_STAND_IN_PATH),
        ),
    );

    scope.get<{ Params: { id: string; index: string } }>(
      `${DISCORD_STAND_IN_PATH}/:id/files/:index`,
      async (request, reply) => {
        const message = (await store.list(PLATFORM)).find(
          (candidate) => String(candidate.id) === request.params.id,
        );
        const file = message?.files[Number(request.params.index)];
        if (!file) return sendApiError(reply, 404, 'not_found');
        return reply.type(file.contentType).header('x-content-type-options', 'nosniff').send(file.data);
      },
    );
  });
}

/** A kept record as the page shows it: the body is the execute-webhook payload as received. */
function postedMessage(record: StandInRecord): PostedDiscordMessage {
  return {
    id: record.id,
    at: new Date(record.at),
    webhookId: record.chat,
    payload: record.body as PostedDiscordMessage['payload'],
    files: [...record.files],
  };
}

/** The product listens only where no one else can reach it (so the stand-in may be served). */
export function listensOnLoopbackOnly(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** Whether the request comes from this machine (the stand-ins and the local receiver serve no one else). */
export function fromLoopback(request: FastifyRequest): boolean {
  const address = (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  return address === '::1' || (isIP(address) === 4 && address.startsWith('127.'));
}

/** Discord's two forms: JSON, or multipart with `payload_json` and files in `files[n]`. */
async function readExecuteWebhook(
  request: FastifyRequest,
): Promise<Pick<PostedDiscordMessage, 'payload' | 'files'> | null> {
  const type = request.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) {
    return isPayload(request.body) ? { payload: request.body, files: [] } : null;
  }
  if (!type.startsWith('multipart/form-data') || !Buffer.isBuffer(request.body)) return null;
  const form = await new Response(new Uint8Array(request.body), { headers: { 'content-type': type } })
    .formData()
    .catch(() => null);
  if (!form) return null;
  let payload: unknown = {};
  try {
    payload = JSON.parse(String(form.get('payload_json') ?? '{}'));
  } catch {
    return null;
  }
  if (!isPayload(payload)) return null;
  const files: PostedDiscordMessage['files'] = [];
  for (const [name, value] of form.entries()) {
    if (!/^files\[\d+\]$/.test(name) || typeof value === 'string') continue;
    files.push({
      filename: value.name,
      contentType: value.type || 'application/octet-stream',
      data: Buffer.from(await value.arrayBuffer()),
    });
  }
  return { payload, files };
}

function isPayload(value: unknown): value is PostedDiscordMessage['payload'] {
  if (typeof value !== 'object' || value === null) return false;
  const { content, embeds } = value as { content?: unknown; embeds?: unknown };
  return (typeof content === 'string' && content !== '') || (Array.isArray(embeds) && embeds.length > 0);
}
