import { hostname } from 'node:os';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { type DestinationStream, type LevelWithSilent, type Logger, pino } from 'pino';

export type { Logger };

export interface LoggerOptions {
  /** The service name on every line, e.g. `account`. */
  service: string;
  level?: LevelWithSilent;
  /** Where lines go; standard output when omitted (tests pass a stream to read them back). */
  destination?: DestinationStream;
}

// Keys that hold credentials or user secrets anywhere we log request-like objects; pino
// replaces their values, so a careless `logger.info({ request })` cannot leak them.
const secretKeys = [
  'password',
  'newPassword',
  'token',
  'sessionToken',
  'accessToken',
  'refreshToken',
  'cookie',
  'cookies',
  'authorization',
  'webhook_url',
  'webhookUrl',
  'secret',
  'apiKey',
];
const redactPaths = [
  ...secretKeys,
  ...secretKeys.map((key) => `*.${key}`),
  ...secretKeys.map((key) => `*.*.${key}`),
  'headers["set-cookie"]',
  '*.headers["set-cookie"]',
];

/**
 * JSON lines with `service` on each, plus `trace_id` and `span_id` whenever a span is
 * active, so a log line leads to its trace and back.
 */
export function createLogger({ service, level = 'info', destination }: LoggerOptions): Logger {
  return pino(
    {
      level,
      base: { service, pid: process.pid, hostname: hostname() },
      redact: { paths: redactPaths, censor: '[redacted]' },
      mixin() {
        const spanContext = trace.getActiveSpan()?.spanContext();
        if (!spanContext || !isSpanContextValid(spanContext)) return {};
        return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
      },
    },
    destination,
  );
}
