export { loadConfig, runtimeEnv } from './config.ts';
export {
  createGrpcClient,
  type GrpcClientConstructor,
  type GrpcClientOptions,
  type UnaryCallOptions,
  type UnaryMethodName,
  unary,
  waitForReady,
} from './grpc-client.ts';
export { GrpcError } from './grpc-error.ts';
export { createGrpcServer, type GrpcServer, type GrpcServerOptions } from './grpc-server.ts';
export { createLogger, type Logger, type LoggerOptions } from './logger.ts';
export { createMetrics, type MetricOptions, type Metrics } from './metrics.ts';
export { type OpsServer, type OpsServerOptions, startOpsServer } from './ops-server.ts';
export { createShutdown, type Shutdown, type ShutdownOptions } from './shutdown.ts';
export { startTelemetry, type Telemetry, type TelemetryOptions } from './telemetry.ts';
export { scaledMs, timeScaleEnv, timeScaleProblem } from './time-scale.ts';
export { type SpanRole, type TracedOptions, traced, withIncomingHttpContext } from './traced.ts';
