import { hostname } from 'node:os';
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { type DestinationStream, type LevelWithSilent, type Logger, pino } from 'pino';
import PinoPretty from 'pino-pretty';

export type { Logger };

export interface LoggerOptions {
  /** The service name on every line, e.g. `account`. */
  service: string;
  level?: LevelWithSilent;
  /**
   * Where lines go; standard output when omitted (tests pass a stream to read them back; a
   * Node stream when `pretty`).
   */
  destination?: DestinationStream;
  /**
   * Readable lines (time, level, message, fields) instead of JSON: for a person at a terminal
   * (the single-process mode started by hand); log collectors get JSON.
   */
  pretty?: boolean;
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
export function createLogger({
  service,
  level = 'info',
  destination,
  pretty = false,
}: LoggerOptions): Logger {
  const output = pretty
    ? PinoPretty({
        // Synchronous, like pino's own stdout stream, so the last lines before an exit are not lost.
        sync: true,
        colorize: destination === undefined && PinoPretty.isColorSupported,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
        ...(destination ? { destination } : {}),
      })
    : destination;
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
    output,
  );
}
