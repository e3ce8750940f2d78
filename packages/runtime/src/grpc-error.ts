import type { status } from '@grpc/grpc-js';

/**
 * The one error a gRPC handler throws on purpose: the client receives exactly this code and
 * message. Anything else thrown reaches the client as INTERNAL with a generic message.
 */
export class GrpcError extends Error {
  override readonly name = 'GrpcError';
  readonly code: status;

  constructor(code: status, message: string) {
    super(message);
    this.code = code;
  }
}
