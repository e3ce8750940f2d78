import { status } from '@grpc/grpc-js';
import { accountV1 } from '@mimamori/contracts';
import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accountServiceWith } from './account-service-test-double.ts';
import { createGrpcClient, unary } from './grpc-client.ts';
import { GrpcError } from './grpc-error.ts';
import { createGrpcServer, type GrpcServer } from './grpc-server.ts';
import { createLogger } from './logger.ts';
import { createMetrics } from './metrics.ts';
import { startTelemetry, type Telemetry } from './telemetry.ts';
import { traced, withIncomingHttpContext } from './traced.ts';

const rpc = 'mimamori.account.v1.AccountService/GetUserInfo';

describe('trace propagation over gRPC', () => {
  const exporter = new InMemorySpanExporter();
  const logLines: Record<string, unknown>[] = [];
  let telemetry: Telemetry;
  let server: GrpcServer;
  let client: accountV1.AccountServiceClient;

  beforeAll(async () => {
    telemetry = startTelemetry({ serviceName: 'tracing-test', spanExporters: [exporter] });
    const logger = createLogger({
      service: 'account',
      destination: { write: (line) => void logLines.push(JSON.parse(line)) },
    });
    server = createGrpcServer({ logger, metrics: createMetrics({ service: 'account' }) });
    server.addService(
      accountV1.AccountServiceService,
      accountServiceWith({
        getUserInfo: (call, callback) => {
          logger.info({ token: call.request.sessionToken }, 'handling');
          if (call.request.sessionToken === 'refused') throw new GrpcError(status.UNAUTHENTICATED, 'no');
          callback(null, { userInfo: undefined });
        },
        createAccount: (_call, callback) => callback(null, { userId: 'u' }),
      }),
    );
    const port = await server.start({ host: '127.0.0.1', port: 0 });
    client = createGrpcClient(accountV1.AccountServiceClient, `127.0.0.1:${port}`);
  });

  afterAll(async () => {
    client.close();
    await server.shutdown(1000);
    await telemetry.shutdown();
  });

  beforeEach(() => {
    exporter.reset();
    logLines.length = 0;
  });

  function spans(kind: SpanKind): ReadableSpan[] {
    return exporter.getFinishedSpans().filter((span) => span.kind === kind && span.name === rpc);
  }

  it('continues the client trace in the server span', async () => {
    const outer = await traced('gateway request', async (span) => {
      await unary(client, 'getUserInfo', { sessionToken: 'ok' });
      return span.spanContext();
    });
    const [clientSpan] = spans(SpanKind.CLIENT);
    const [serverSpan] = spans(SpanKind.SERVER);
    expect(clientSpan?.spanContext().traceId).toBe(outer.traceId);
    expect(clientSpan?.parentSpanContext?.spanId).toBe(outer.spanId);
    expect(serverSpan?.spanContext().traceId).toBe(outer.traceId);
    expect(serverSpan?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
    expect(serverSpan?.attributes).toMatchObject({ 'rpc.system': 'grpc', 'rpc.grpc.status_code': status.OK });
  });

  it('puts the server span ids on the handler log lines', async () => {
    await unary(client, 'getUserInfo', { sessionToken: 'ok' });
    const [serverSpan] = spans(SpanKind.SERVER);
    expect(logLines).toContainEqual(
      expect.objectContaining({
        msg: 'handling',
        trace_id: serverSpan?.spanContext().traceId,
        span_id: serverSpan?.spanContext().spanId,
      }),
    );
  });

  it('continues an incoming HTTP traceparent through the gRPC call', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await withIncomingHttpContext(
      { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      'GET /api/user_info',
      () => unary(client, 'getUserInfo', { sessionToken: 'ok' }),
    );
    expect(spans(SpanKind.SERVER)[0]?.spanContext().traceId).toBe(traceId);
    const httpSpan = exporter.getFinishedSpans().find((span) => span.name === 'GET /api/user_info');
    expect(httpSpan?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
  });

  it('marks both spans failed on an error status', async () => {
    await expect(unary(client, 'getUserInfo', { sessionToken: 'refused' })).rejects.toMatchObject({
      code: status.UNAUTHENTICATED,
    });
    for (const span of [...spans(SpanKind.CLIENT), ...spans(SpanKind.SERVER)]) {
      expect(span.attributes['rpc.grpc.status_code']).toBe(status.UNAUTHENTICATED);
      expect(span.status.code).toBe(2);
    }
    expect(spans(SpanKind.SERVER)).toHaveLength(1);
  });

  it('starts a new trace for a call made outside any span', async () => {
    expect(trace.getActiveSpan()).toBeUndefined();
    await unary(client, 'getUserInfo', { sessionToken: 'ok' });
    const [clientSpan] = spans(SpanKind.CLIENT);
    expect(clientSpan?.parentSpanContext).toBeUndefined();
    expect(spans(SpanKind.SERVER)[0]?.spanContext().traceId).toBe(clientSpan?.spanContext().traceId);
  });

  it('is started once per process: a second start is a no-op', async () => {
    const second = startTelemetry({ serviceName: 'another-service' });
    await second.shutdown();
    await traced('still traced', async () => {});
    expect(exporter.getFinishedSpans().map((span) => span.name)).toContain('still traced');
  });
});
