import { type Mailbox, renderMailboxPage, renderMailPage } from '@mimamori/mail';
import type { FastifyInstance } from 'fastify';
import { sendApiError } from './api-error.ts';

const BASE_PATH = '/dev/mailbox';

/**
 * The single-process mode keeps outgoing mail instead of sending it; these pages let the
 * person running it read that mail (verification links, notifications) in the browser.
 */
export function mailboxRoutes(app: FastifyInstance, mailbox: Mailbox) {
  // Pages for the person running the product, not the API: left out of /api/openapi.json.
  const hide = { schema: { hide: true } };
  app.get(BASE_PATH, hide, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(await renderMailboxPage(mailbox, { basePath: BASE_PATH })),
  );
  app.get<{ Params: { id: string } }>(`${BASE_PATH}/:id`, hide, async (request, reply) => {
    const body = await renderMailPage(mailbox, request.params.id, { basePath: BASE_PATH });
    if (body === null) return sendApiError(reply, 404, 'not_found');
    return reply.type('text/html; charset=utf-8').send(body);
  });
  app.get<{ Params: { id: string; index: string } }>(
    `${BASE_PATH}/:id/attachments/:index`,
    hide,
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
