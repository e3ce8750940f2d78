import { z } from 'zod';
import { timeScaleEnv, timeScaleProblem } from './time-scale.ts';

/**
 * The variables every service reads. Services spread this into their own shape:
 * `z.object({ ...runtimeEnv, DATABASE_URL: z.string() })`.
 */
export const runtimeEnv = {
  // pino level of the service's logs.
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // OTLP/HTTP base endpoint (…/v1/traces is appended); trace export is off when unset.
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
  // HTTP port of /livez, /readyz and /metrics; 0 picks a free one.
  OPS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  // Port of the service's gRPC server; 0 picks a free one.
  GRPC_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  // Address the gRPC and ops servers bind; 0.0.0.0 in a pod, loopback on a developer machine.
  GRPC_HOST: z.string().min(1).default('127.0.0.1'),
  // How long a graceful shutdown may take before the process exits anyway.
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(8000),
  ...timeScaleEnv,
};

/**
 * Parses the environment once at start. On failure it throws one Error naming every bad or
 * missing variable and what is wrong with it, never the value: values may be secrets.
 */
export function loadConfig<Schema extends z.ZodObject>(
  schema: Schema,
  env: Record<string, string | undefined> = process.env,
): z.output<Schema> {
  const result = schema.safeParse(env);
  if (result.success) {
    const scale = (result.data as { MIMAMORI_TIME_SCALE?: number }).MIMAMORI_TIME_SCALE ?? 1;
    const refused = timeScaleProblem(scale, env.NODE_ENV);
    if (!refused) return result.data;
    throw new Error(`Invalid configuration (1 problem(s)):\n  MIMAMORI_TIME_SCALE: ${refused}`);
  }
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.map(String).join('.') || '(environment)';
    const missing = issue.path.length === 1 && env[String(issue.path[0])] === undefined;
    return `  ${name}: ${missing ? 'missing' : issue.message}`;
  });
  throw new Error(`Invalid configuration (${problems.length} problem(s)):\n${problems.join('\n')}`);
}
