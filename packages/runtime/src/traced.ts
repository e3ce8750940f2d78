import type { IncomingHttpHeaders } from 'node:http';
import {
  type Attributes,
  context,
  defaultTextMapGetter,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

export type SpanRole = 'internal' | 'server' | 'client' | 'producer' | 'consumer';

export interface TracedOptions {
  kind?: SpanRole;
  attributes?: Attributes;
}

const spanKinds: Record<SpanRole, SpanKind> = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
};

/** The tracer of all Mimamori code; spans carry the service through the provider's resource. */
export function tracer() {
  return trace.getTracer('mimamori');
}

/** Marks a span failed with the error, without putting the error into the span name. */
export function recordFailure(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

/**
 * Runs `fn` inside a new active span (child of the current one) and ends it when `fn`
 * settles; a rejection marks the span failed and is rethrown.
 */
export function traced<T>(
  name: string,
  fn: (span: Span) => T | Promise<T>,
  options: TracedOptions = {},
): Promise<T> {
  const spanOptions = { kind: spanKinds[options.kind ?? 'internal'], attributes: options.attributes ?? {} };
  return tracer().startActiveSpan(name, spanOptions, async (span) => {
    try {
      return await fn(span);
    } catch (error) {
      recordFailure(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * For HTTP servers (the gateway): continues the caller's trace from its `traceparent` header,
 * or starts a new one, in a SERVER span around `fn`. Everything `fn` awaits, including gRPC
 * calls made through the runtime's client, joins that trace.
 */
export function withIncomingHttpContext<T>(
  headers: IncomingHttpHeaders,
  name: string,
  fn: (span: Span) => T | Promise<T>,
): Promise<T> {
  const parent = propagation.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
  return context.with(parent, () => traced(name, fn, { kind: 'server' }));
}
