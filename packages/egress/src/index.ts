export { addressRefusal } from './address-policy.ts';
export {
  type AllowedPages,
  type CheckedAddress,
  createEgressGuard,
  type EgressGuard,
  type EgressOptions,
} from './egress-guard.ts';
export { createGuardedDispatcher, type GuardedDispatcherOptions } from './guarded-dispatcher.ts';
export { type GuardedProxy, type GuardedProxyOptions, startGuardedProxy } from './guarded-proxy.ts';
export { type LoopbackNamespaceRun, runInLoopbackNamespace } from './loopback-namespace.ts';
export { RefusedAddressError } from './refused-address-error.ts';
