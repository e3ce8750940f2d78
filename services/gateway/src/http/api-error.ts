import { status as grpcStatus } from '@grpc/grpc-js';
import type { FastifyReply } from 'fastify';

/**
 * Every API error has one shape: a stable machine code and the message key the SPA
 * translates (the messages of docs/product.md live in the SPA's catalogues).
 */
export function sendApiError(reply: FastifyReply, httpStatus: number, code: string) {
  return reply
    .code(httpStatus)
    .type('application/json')
    .send({ error: { code, message_key: `errors.${code}` } });
}

const httpByGrpc: Partial<Record<number, [number, string]>> = {
  [grpcStatus.UNAUTHENTICATED]: [401, 'unauthenticated'],
  [grpcStatus.PERMISSION_DENIED]: [403, 'forbidden'],
  [grpcStatus.NOT_FOUND]: [404, 'not_found'],
  [grpcStatus.INVALID_ARGUMENT]: [400, 'invalid_argument'],
  [grpcStatus.ALREADY_EXISTS]: [409, 'already_exists'],
  [grpcStatus.FAILED_PRECONDITION]: [409, 'failed_precondition'],
  [grpcStatus.RESOURCE_EXHAUSTED]: [429, 'rate_limited'],
  [grpcStatus.UNAVAILABLE]: [503, 'unavailable'],
  [grpcStatus.DEADLINE_EXCEEDED]: [503, 'unavailable'],
};

/** Answers a failed gRPC call with the matching HTTP status; unknown failures are 500 and logged. */
export function sendGrpcFailure(reply: FastifyReply, error: unknown) {
  const code = (error as { code?: number }).code;
  const mapped = code === undefined ? undefined : httpByGrpc[code];
  if (mapped) return sendApiError(reply, mapped[0], mapped[1]);
  reply.request.log.error({ err: error }, 'backend call failed');
  return sendApiError(reply, 500, 'internal');
}
