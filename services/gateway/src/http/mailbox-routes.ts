import { BlockList, isIP } from 'node:net';
import { type Mailbox, renderMailboxPage, renderMailPage } from '@mimamori/mail';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendApiError } from './api-error.ts';

const BASE_PATH = '/dev/mailbox';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/**
 * The single-process mode keeps outgoing mail instead of sending it; these pages let the
 * person running it read that mail (verification links, notifications) in the browser.
 */
export function mailboxRoutes(app: FastifyInstance, mailbox: Mailbox) {
  // The pages show every account's verification and reset mail without signing in: only the
  // person at the machine may read them, so they exist only while the product listens on loopback.
  const onRequest = async (_request: FastifyRequest, reply: FastifyReply) => {
    if (!listensOnLoopback(app)) return sendApiError(reply, 404, 'not_found');
  };
  // Pages for the person running the product, not the API: left out of /api/openapi.json.
  const hide = { hide: true };
  app.get(BASE_PATH, { onRequest, schema: hide }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(await renderMailboxPage(mailbox, { basePath: BASE_PATH })),
  );
  app.get<{ Params: { id: string } }>(
    `${BASE_PATH}/:id`,
    { onRequest, schema: hide },
    async (request, reply) => {
      const body = await renderMailPage(mailbox, request.params.id, { basePath: BASE_PATH });
      if (body === null) return sendApiError(reply, 404, 'not_found');
      return reply.type('text/html; charset=utf-8').send(body);
    },
  );
  app.get<{ Params: { id: string; index: string } }>(
    `${BASE_PATH}/:id/attachments/:index`,
    { onRequest, schema: hide },
    async (request, reply) => {
      const message = await mailbox.read(request.params.id);
      const attachment = message?.attachments[Number(request.params.index)];
      if (!attachment) return sendApiError(reply, 404, 'not_found');
      return reply
        .type(attachment.contentType)
        .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(attachment.filename)}`)
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(attachment.content));
    },
  );
}

/** Whether the server is bound to a loopback address (not a wildcard, not another interface). */
function listensOnLoopback(app: FastifyInstance): boolean {
  const bound = app.server.address();
  if (!bound || typeof bound !== 'object') return false;
  if (isIP(bound.address) === 0) return false;
  const address = bound.address.startsWith('::ffff:') ? bound.address.slice(7) : bound.address;
  return loopback.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}
