import {
  type CallOptions,
  type ChannelCredentials,
  type Client,
  type ClientOptions,
  type ClientUnaryCall,
  credentials,
  InterceptingCall,
  type Interceptor,
  ListenerBuilder,
  Metadata,
  RequesterBuilder,
  type ServiceError,
  status,
} from '@grpc/grpc-js';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { metadataSetter, rpcName } from './grpc-trace-context.ts';
import { tracer } from './traced.ts';

/** What ts-proto generates for a service, e.g. `accountV1.AccountServiceClient`. */
export type GrpcClientConstructor<C extends Client> = new (
  address: string,
  credentials: ChannelCredentials,
  options?: Partial<ClientOptions>,
) => C;

export interface GrpcClientOptions {
  /** Deadline of every call that does not set its own. */
  deadlineMs?: number;
  /**
   * `round_robin` spreads calls over every address the target resolves to (the pods behind a
   * headless Service, or an `ipv4:` list); by default (`pick_first`) all calls go to the first
   * that answers.
   */
  loadBalancing?: 'pick_first' | 'round_robin';
}

/**
 * A ts-proto gRPC client (plaintext: traffic stays inside the cluster network) whose every
 * call runs in a CLIENT span, carries `traceparent` in its metadata and has a deadline.
 */
export function createGrpcClient<C extends Client>(
  Constructor: GrpcClientConstructor<C>,
  address: string,
  { deadlineMs = 5000, loadBalancing }: GrpcClientOptions = {},
): C {
  return new Constructor(address, credentials.createInsecure(), {
    interceptors: [tracingInterceptor, defaultDeadline(deadlineMs)],
    ...(loadBalancing
      ? { 'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ [loadBalancing]: {} }] }) }
      : {}),
  });
}

function defaultDeadline(deadlineMs: number): Interceptor {
  return (options, nextCall) =>
    new InterceptingCall(
      nextCall(options.deadline === undefined ? { ...options, deadline: Date.now() + deadlineMs } : options),
    );
}

const tracingInterceptor: Interceptor = (options, nextCall) => {
  const name = rpcName(options.method_definition.path);
  // Captured now: the interceptor runs synchronously inside the caller's context.
  const parent = context.active();
  const span = tracer().startSpan(
    name.spanName,
    { kind: SpanKind.CLIENT, attributes: name.attributes },
    parent,
  );
  const requester = new RequesterBuilder()
    .withStart((metadata, _listener, next) => {
      propagation.inject(trace.setSpan(parent, span), metadata, metadataSetter);
      const recordStatus = new ListenerBuilder()
        .withOnReceiveStatus((result, nextStatus) => {
          span.setAttribute('rpc.grpc.status_code', result.code);
          if (result.code !== status.OK)
            span.setStatus({ code: SpanStatusCode.ERROR, message: status[result.code] });
          span.end();
          nextStatus(result);
        })
        .build();
      // A partial listener: grpc-js chains it in front of the caller's own.
      next(metadata, recordStatus);
    })
    .build();
  return new InterceptingCall(nextCall(options), requester);
};

type UnaryMethod<Request, Response> = (
  request: Request,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Response) => void,
) => ClientUnaryCall;

/** The names of a client's unary methods (`'getUserInfo' | 'createAccount'`). */
export type UnaryMethodName<C> = {
  [K in keyof C]: C[K] extends UnaryMethod<never, unknown> ? K : never;
}[keyof C] &
  string;

type RequestOf<M> = M extends UnaryMethod<infer Request, unknown> ? Request : never;
type ResponseOf<M> = M extends UnaryMethod<never, infer Response> ? Response : never;

export interface UnaryCallOptions {
  /** Overrides the client's default deadline for this call. */
  deadlineMs?: number;
  metadata?: Metadata;
}

/**
 * Calls a unary method and resolves to its response; rejects with the grpc-js ServiceError
 * (`code` is a `status` value, `details` the server's message).
 */
export function unary<C extends Client, M extends UnaryMethodName<C>>(
  client: C,
  method: M,
  request: RequestOf<C[M]>,
  options: UnaryCallOptions = {},
): Promise<ResponseOf<C[M]>> {
  const call = client[method] as UnaryMethod<RequestOf<C[M]>, ResponseOf<C[M]>>;
  const callOptions: Partial<CallOptions> =
    options.deadlineMs === undefined ? {} : { deadline: Date.now() + options.deadlineMs };
  return new Promise((resolve, reject) => {
    call.call(client, request, options.metadata ?? new Metadata(), callOptions, (error, response) =>
      error ? reject(error) : resolve(response),
    );
  });
}

/** Resolves once the client's channel is connected; rejects after `deadlineMs`. */
export function waitForReady(client: Client, deadlineMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    client.waitForReady(Date.now() + deadlineMs, (error) => (error ? reject(error) : resolve()));
  });
}
