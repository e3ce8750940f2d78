export { ACK_WAIT_FLOOR_MS, type RunningService, runService, type ServiceHostDeps } from './run-service.ts';
export { runServiceProcess, runStatelessProcess, serviceProcessEnv } from './run-service-process.ts';
export type { GrpcServiceBinding, HttpFront, ServiceModule, ServiceTimer } from './service-module.ts';
export { unaryHandler } from './unary-handler.ts';
