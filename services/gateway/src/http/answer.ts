import { withIncomingHttpContext } from '@mimamori/runtime';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Runs a route's work inside the request's trace and answers a failure with `onFailure`.
 * Resolves once the answer has been sent in full (a reply is thenable), so a handler typed by its
 * response schemas can be async and return nothing.
 */
export async function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  work: () => Promise<unknown>,
  onFailure: (reply: FastifyReply, error: unknown) => unknown,
): Promise<void> {
  await withIncomingHttpContext(request.headers, name, async () => {
    try {
      await work();
    } catch (error) {
      onFailure(reply, error);
    }
  });
  await reply;
}
