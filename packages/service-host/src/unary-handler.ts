import type { handleUnaryCall, ServerUnaryCall } from '@grpc/grpc-js';

/**
 * Lets a gRPC method be written as an async function. What it throws is handed to the
 * runtime's server wrapper, which keeps GrpcError codes and hides everything else as INTERNAL.
 */
export function unaryHandler<Request, Response>(
  handle: (request: Request, call: ServerUnaryCall<Request, Response>) => Promise<Response>,
): handleUnaryCall<Request, Response> {
  return (call, callback) => {
    handle(call.request, call).then(
      (response) => callback(null, response),
      (error: unknown) => callback(error as Error),
    );
  };
}
