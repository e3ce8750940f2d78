import { status as grpcStatus } from '@grpc/grpc-js';
import type { FastifyReply } from 'fastify';
import { sendApiError, sendGrpcFailure } from './api-error.ts';

const httpByGrpc: Partial<Record<number, number>> = {
  [grpcStatus.INVALID_ARGUMENT]: 400,
  [grpcStatus.UNAUTHENTICATED]: 401,
  [grpcStatus.PERMISSION_DENIED]: 403,
  [grpcStatus.NOT_FOUND]: 404,
  [grpcStatus.ALREADY_EXISTS]: 409,
  [grpcStatus.FAILED_PRECONDITION]: 409,
  [grpcStatus.RESOURCE_EXHAUSTED]: 429,
};

/**
 * The account service names each refusal (`password_too_short`, `too_many_attempts`); that
 * name becomes the API error code, so the SPA can show its message (docs/product.md#account).
 */
export function sendAccountFailure(reply: FastifyReply, error: unknown) {
  const { code, details } = error as { code?: number; details?: string };
  const httpStatus = code === undefined ? undefined : httpByGrpc[code];
  if (httpStatus && details && /^[a-z_]{3,60}$/.test(details))
    return sendApiError(reply, httpStatus, details);
  return sendGrpcFailure(reply, error);
}
