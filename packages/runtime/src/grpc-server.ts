import {
  type handleUnaryCall,
  type MethodDefinition,
  Server,
  ServerCredentials,
  type ServiceDefinition,
  type StatusObject,
  type sendUnaryData,
  status,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { HealthImplementation } from 'grpc-health-check';
import { GrpcError } from './grpc-error.ts';
import { metadataGetter, rpcName } from './grpc-trace-context.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';
import { tracer } from './traced.ts';

export interface GrpcServerOptions {
  logger: Logger;
  metrics: Metrics;
}

export interface GrpcServer {
  /** Every method of `definition` needs a unary handler in `implementation`; checked here. */
  addService(definition: ServiceDefinition, implementation: UntypedServiceImplementation): void;
  /** Binds and serves; resolves to the bound port (useful with port 0). */
  start(address: { host: string; port: number }): Promise<number>;
  /** Flips the grpc.health.v1 status of the server ("") and of every added service. */
  setServing(serving: boolean): void;
  /**
   * Reports NOT_SERVING, stops accepting calls and lets in-flight ones finish; after
   * `timeoutMs` the remaining calls are cancelled.
   */
  shutdown(timeoutMs: number): Promise<void>;
}

type Observe = (name: ReturnType<typeof rpcName>, code: status, seconds: number) => void;

/**
 * A gRPC server whose every handler runs in a SERVER span continuing the caller's trace,
 * is counted and timed in Prometheus, and maps errors: a GrpcError keeps its code and
 * message, anything else is logged and answered INTERNAL without details. It always serves
 * the standard grpc.health.v1.Health service.
 */
export function createGrpcServer({ logger, metrics }: GrpcServerOptions): GrpcServer {
  const server = new Server();
  const health = new HealthImplementation({ '': 'NOT_SERVING' });
  health.addToServer(server);
  const serviceNames: string[] = [];

  const handled = metrics.counter({
    name: 'grpc_server_handled_total',
    help: 'gRPC calls completed on the server, by method and status code.',
    labelNames: ['grpc_service', 'grpc_method', 'grpc_code'],
  });
  const handling = metrics.histogram({
    name: 'grpc_server_handling_seconds',
    help: 'Time from receiving a gRPC call to answering it.',
    labelNames: ['grpc_service', 'grpc_method'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  const observe: Observe = (name, code, seconds) => {
    handled.inc({ grpc_service: name.service, grpc_method: name.method, grpc_code: status[code] });
    handling.observe({ grpc_service: name.service, grpc_method: name.method }, seconds);
  };

  function setServing(serving: boolean) {
    const value = serving ? 'SERVING' : 'NOT_SERVING';
    for (const name of ['', ...serviceNames]) health.setStatus(name, value);
  }

  return {
    addService(definition, implementation) {
      const wrapped: UntypedServiceImplementation = {};
      for (const [key, method] of Object.entries(definition) as [
        string,
        MethodDefinition<unknown, unknown>,
      ][]) {
        const handler = implementation[key];
        if (method.requestStream || method.responseStream) {
          throw new Error(`${method.path}: streaming methods are not supported by the runtime server`);
        }
        if (!handler) throw new Error(`${method.path}: no handler for method '${key}'`);
        wrapped[key] = wrapUnary(method.path, handler as handleUnaryCall<unknown, unknown>, logger, observe);
      }
      server.addService(definition, wrapped);
      const first = Object.values(definition)[0];
      if (first) {
        const { service } = rpcName(first.path);
        serviceNames.push(service);
        health.setStatus(service, 'NOT_SERVING');
      }
    },

    async start({ host, port }) {
      const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
      const bound = await new Promise<number>((resolve, reject) => {
        server.bindAsync(address, ServerCredentials.createInsecure(), (error, boundPort) =>
          error ? reject(error) : resolve(boundPort),
        );
      });
      setServing(true);
      logger.info({ address: `${host}:${bound}`, services: serviceNames }, 'grpc server listening');
      return bound;
    },

    setServing,

    async shutdown(timeoutMs) {
      setServing(false);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          logger.warn({ timeoutMs }, 'grpc calls still running at the shutdown timeout; cancelling them');
          server.forceShutdown();
          resolve();
        }, timeoutMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

function wrapUnary(
  path: string,
  handler: handleUnaryCall<unknown, unknown>,
  logger: Logger,
  observe: Observe,
): handleUnaryCall<unknown, unknown> {
  const name = rpcName(path);
  return (call, callback) => {
    const parent = propagation.extract(ROOT_CONTEXT, call.metadata, metadataGetter);
    const span = tracer().startSpan(
      name.spanName,
      { kind: SpanKind.SERVER, attributes: name.attributes },
      parent,
    );
    const spanContext = trace.setSpan(parent, span);
    const startedAt = performance.now();
    let done = false;

    const complete = (code: status) => {
      done = true;
      span.setAttribute('rpc.grpc.status_code', code);
      if (code !== status.OK) span.setStatus({ code: SpanStatusCode.ERROR, message: status[code] });
      span.end();
      observe(name, code, (performance.now() - startedAt) / 1000);
    };

    // The client gave up (deadline or cancel); grpc-js already answered it, so only record.
    call.once('cancelled', () => {
      if (done) return;
      const deadline = call.getDeadline();
      const expired = (deadline instanceof Date ? deadline.getTime() : deadline) <= Date.now();
      complete(expired ? status.DEADLINE_EXCEEDED : status.CANCELLED);
    });

    const respond: sendUnaryData<unknown> = (error, value, trailer, flags) => {
      if (done) return;
      if (!error) {
        complete(status.OK);
        callback(null, value, trailer, flags);
        return;
      }
      const answer = context.with(spanContext, () => toClientError(error, name.spanName, logger));
      span.recordException(error instanceof Error ? error : String(error));
      complete(answer.code ?? status.INTERNAL);
      callback(answer, null, trailer, flags);
    };

    context.with(spanContext, () => {
      try {
        // Async handlers return a promise; its rejection is a thrown error like any other.
        const result: unknown = handler(call, respond);
        if (result instanceof Promise) result.catch((error: Error) => respond(error));
      } catch (error) {
        respond(error as Error);
      }
    });
  };
}

function toClientError(error: unknown, rpc: string, logger: Logger): Partial<StatusObject> {
  if (error instanceof GrpcError) {
    logger.debug({ rpc, code: status[error.code], reason: error.message }, 'grpc call refused');
    return { code: error.code, details: error.message };
  }
  logger.error({ err: error, rpc }, 'grpc handler failed');
  return { code: status.INTERNAL, details: 'internal error' };
}
