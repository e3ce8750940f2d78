import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';

export interface TelemetryOptions {
  /** `service.name` on every span, e.g. `mimamori-account`. */
  serviceName: string;
  /** OTLP/HTTP base endpoint (`…/v1/traces` is appended); no export when unset. */
  otlpEndpoint?: string | undefined;
  /** Extra exporters, each behind a SimpleSpanProcessor (tests pass an InMemorySpanExporter). */
  spanExporters?: readonly SpanExporter[];
}

export interface Telemetry {
  /** Flushes pending spans and unregisters the globals, so telemetry can be started again. */
  shutdown(): Promise<void>;
}

let started = false;

/**
 * Registers a real tracer provider, an AsyncLocalStorage context manager and the W3C
 * trace-context propagator as the process-wide OpenTelemetry globals. Spans are created even
 * without an exporter, so trace ids reach the logs and cross service boundaries in every
 * mode. No auto-instrumentation: it relies on patching CommonJS loads, which ESM under tsx
 * bypasses; the runtime's gRPC wrappers, `traced` and `withIncomingHttpContext` propagate
 * explicitly instead.
 *
 * In single-process mode every service calls this; the first call wins and later calls get
 * a shutdown that does nothing, so the one provider is shared.
 */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  if (started) return { shutdown: async () => {} };

  const spanProcessors: SpanProcessor[] = [];
  if (options.otlpEndpoint) {
    const url = `${options.otlpEndpoint.replace(/\/+$/, '')}/v1/traces`;
    spanProcessors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url }) }));
  }
  for (const exporter of options.spanExporters ?? []) {
    spanProcessors.push(new SimpleSpanProcessor({ exporter }));
  }
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors,
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();

  // Another copy of this module (a second module graph in the same process) may have
  // registered first; the API then refuses and we leave its provider in charge.
  if (!trace.setGlobalTracerProvider(provider)) {
    contextManager.disable();
    void provider.shutdown();
    return { shutdown: async () => {} };
  }
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  started = true;

  let stopping: Promise<void> | undefined;
  return {
    shutdown() {
      stopping ??= provider.shutdown().finally(() => {
        trace.disable();
        propagation.disable();
        context.disable();
        started = false;
      });
      return stopping;
    },
  };
}
