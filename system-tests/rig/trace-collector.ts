import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CollectedSpan {
  traceId: string;
  name: string;
  /** The exporting process's `service.name` (mimamori-scheduler, …). */
  service: string;
}

/**
 * An OTLP/HTTP receiver on loopback: the services' trace exporters (JSON encoding, the default
 * of @opentelemetry/exporter-trace-otlp-http) post their spans here.
 */
export async function startTraceCollector() {
  const spans: CollectedSpan[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      if (request.url === '/v1/traces') spans.push(...spansOf(body));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: { stringValue?: string } }[] };
    scopeSpans?: { spans?: { traceId: string; name: string }[] }[];
  }[];
}

function spansOf(body: string): CollectedSpan[] {
  const request = JSON.parse(body) as ExportRequest;
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const service =
      resourceSpans.resource?.attributes?.find((attribute) => attribute.key === 'service.name')?.value
        .stringValue ?? '';
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({ traceId: span.traceId, name: span.name, service })),
    );
  });
}
