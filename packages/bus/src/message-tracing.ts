import {
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
} from '@opentelemetry/api';
import { readHeader } from './message-headers.ts';

// Looked up on each use: a tracer taken at import would stay a no-op if telemetry is
// registered again later (tests, or a restart of telemetry in one process).
const tracer = () => trace.getTracer('@mimamori/bus');

const headerGetter: TextMapGetter<Record<string, string>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => readHeader(carrier, key),
};

/**
 * Publishes inside a PRODUCER span and carries its context in the headers. The span's
 * parent is a context already in the headers (an outbox row remembers the trace of the
 * transaction that wrote it; the relay has none of its own), else the active one.
 */
export function publishTraced<T>(
  subject: string,
  msgId: string,
  headers: Record<string, string>,
  publish: (headers: Record<string, string>) => Promise<T>,
): Promise<T> {
  const parent = propagation.extract(context.active(), headers, headerGetter);
  return tracer().startActiveSpan(
    `publish ${subject}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        'messaging.system': 'nats',
        'messaging.destination.name': subject,
        'messaging.message.id': msgId,
      },
    },
    parent,
    (span) => {
      const carried = { ...headers };
      propagation.inject(context.active(), carried);
      return endWith(span, publish(carried));
    },
  );
}

/** Runs a handler inside a CONSUMER span whose parent is the publisher's, taken from the headers. */
export function handleTraced(
  message: { subject: string; msgId: string; headers: Record<string, string>; deliveryCount: number },
  consumer: string,
  handle: () => Promise<void>,
): Promise<void> {
  const parent = propagation.extract(ROOT_CONTEXT, message.headers, headerGetter);
  return tracer().startActiveSpan(
    `process ${message.subject}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'nats',
        'messaging.destination.name': message.subject,
        'messaging.message.id': message.msgId,
        'messaging.consumer.group.name': consumer,
        'messaging.nats.delivery_count': message.deliveryCount,
      },
    },
    parent,
    (span) => endWith(span, handle()),
  );
}

/** Headers carrying the active trace context, for work that publishes later (the outbox). */
export function currentTraceHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  propagation.inject(context.active(), headers);
  return headers;
}

async function endWith<T>(span: Span, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    throw error;
  } finally {
    span.end();
  }
}
