import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One execute-webhook call Discord would have accepted. */
export interface ReceivedDiscordMessage {
  webhookId: string;
  payload: {
    embeds: {
      title: string;
      url?: string;
      description: string;
      fields: { name: string; value: string }[];
      image?: { url: string };
      thumbnail?: { url: string };
    }[];
    attachments: { id: number; filename: string }[];
  };
  files: { field: string; filename: string; type: string; size: number }[];
}

export interface DiscordStandIn {
  /** The API base the notifier posts to instead of https://discord.com. */
  apiBase: string;
  accepted: ReceivedDiscordMessage[];
  /** Every call, answered or not: `<webhook id> <status>`. */
  calls: string[];
  /** Payloads that break Discord's documented format; a test expects none. */
  problems: string[];
  /** Answers the next calls to a webhook with these statuses (429 carries `retry_after`). */
  failNext(webhookId: string, ...answers: { status: number; retryAfterSeconds?: number }[]): void;
  waitForAccepted(webhookId: string, count: number, timeoutMs?: number): Promise<ReceivedDiscordMessage[]>;
  close(): Promise<void>;
}

const LIMITS = { title: 256, description: 4096, fields: 25, fieldName: 256, fieldValue: 1024, total: 6000 };

/**
 * A local HTTP server standing in for Discord's execute-webhook endpoint
 * (https://discord.com/developers/docs/resources/webhook#execute-webhook): it parses the
 * multipart body, checks `payload_json`, the embed limits and that every `files[n]` has its
 * attachment entry, and answers like Discord (200 with `?wait=true`, 429 with retry_after).
 */
export async function startDiscordStandIn(): Promise<DiscordStandIn> {
  const accepted: ReceivedDiscordMessage[] = [];
  const calls: string[] = [];
  const problems: string[] = [];
  const scripted = new Map<string, { status: number; retryAfterSeconds?: number }[]>();
  const waiters = new Set<() => void>();

  const server = createServer((request, response) => {
    handle(request).then(
      ({ status, body }) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
        for (const waiter of waiters) waiter();
      },
      (error: Error) => {
        problems.push(error.message);
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: error.message, code: 50035 }));
      },
    );
  });

  async function handle(request: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const match = /^\/api\/webhooks\/(\d+)\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
    if (request.method !== 'POST' || !match?.[1])
      throw new Error(`unexpected ${request.method} ${url.pathname}`);
    const webhookId = match[1];
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const next = scripted.get(webhookId)?.shift();
    if (next) {
      calls.push(`${webhookId} ${next.status}`);
      if (next.status === 429)
        return {
          status: 429,
          body: {
            message: 'You are being rate limited.',
            retry_after: next.retryAfterSeconds ?? 1,
            global: false,
          },
        };
      return { status: next.status, body: { message: 'scripted failure' } };
    }
    calls.push(`${webhookId} 200`);
    if (url.searchParams.get('wait') !== 'true') throw new Error('execute without ?wait=true');
    const contentType = request.headers['content-type'] ?? '';
    if (!contentType.startsWith('multipart/form-data')) throw new Error(`content-type ${contentType}`);
    const form = await new Request('http://stand-in/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: Buffer.concat(chunks),
    }).formData();
    const json = form.get('payload_json');
    if (typeof json !== 'string') throw new Error('payload_json missing');
    const payload = JSON.parse(json) as ReceivedDiscordMessage['payload'];
    checkEmbeds(payload);
    const files: ReceivedDiscordMessage['files'] = [];
    for (const [field, value] of form.entries()) {
      if (field === 'payload_json') continue;
      if (!/^files\[\d+\]$/.test(field) || typeof value === 'string')
        throw new Error(`unexpected field ${field}`);
      files.push({ field, filename: value.name, type: value.type, size: value.size });
    }
    for (const [index, file] of files.entries()) {
      const entry = payload.attachments?.find((attachment) => attachment.id === index);
      if (file.field !== `files[${index}]` || entry?.filename !== file.filename)
        throw new Error(`files[${index}] has no matching attachment entry`);
    }
    for (const embed of payload.embeds) {
      for (const ref of [embed.image?.url, embed.thumbnail?.url]) {
        if (
          ref?.startsWith('attachment://') &&
          !files.some((file) => `attachment://${file.filename}` === ref)
        )
          throw new Error(`embed refers to ${ref}, not uploaded`);
      }
    }
    accepted.push({ webhookId, payload, files });
    return { status: 200, body: { id: String(accepted.length), webhook_id: webhookId } };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    apiBase: `http://127.0.0.1:${port}`,
    accepted,
    calls,
    problems,
    failNext(webhookId, ...answers) {
      scripted.set(webhookId, [...(scripted.get(webhookId) ?? []), ...answers]);
    },
    waitForAccepted(webhookId, count, timeoutMs = 20_000) {
      const mine = () => accepted.filter((message) => message.webhookId === webhookId);
      return new Promise((resolve, reject) => {
        const check = () => {
          if (mine().length < count) return;
          done();
          resolve(mine());
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(
              `Discord stand-in: ${mine().length} of ${count} messages for ${webhookId}; calls ${calls}`,
            ),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function checkEmbeds(payload: ReceivedDiscordMessage['payload']): void {
  if (!Array.isArray(payload.embeds) || payload.embeds.length > 10)
    throw new Error('embeds: 1 to 10 expected');
  let total = 0;
  for (const embed of payload.embeds) {
    const fields = embed.fields ?? [];
    if ((embed.title ?? '').length > LIMITS.title) throw new Error('embed title over 256');
    if ((embed.description ?? '').length > LIMITS.description) throw new Error('embed description over 4096');
    if (fields.length > LIMITS.fields) throw new Error('more than 25 fields');
    for (const field of fields) {
      if (!field.name || field.name.length > LIMITS.fieldName)
        throw new Error('field name empty or over 256');
      if (!field.value || field.value.length > LIMITS.fieldValue)
        throw new Error('field value empty or over 1024');
      total += field.name.length + field.value.length;
    }
    total += (embed.title ?? '').length + (embed.description ?? '').length;
  }
  if (total > LIMITS.total) throw new Error(`embeds hold ${total} characters, over 6000`);
}
