import type { Metadata } from '@grpc/grpc-js';
import type { Attributes, TextMapGetter, TextMapSetter } from '@opentelemetry/api';

/** Reads `traceparent` (and any other propagated field) from gRPC metadata. */
export const metadataGetter: TextMapGetter<Metadata> = {
  keys: (metadata) => Object.keys(metadata.getMap()),
  get: (metadata, key) => {
    const value = metadata.get(key).find((entry) => typeof entry === 'string');
    return typeof value === 'string' ? value : undefined;
  },
};

export const metadataSetter: TextMapSetter<Metadata> = {
  set: (metadata, key, value) => metadata.set(key, value),
};

export interface RpcName {
  /** `mimamori.account.v1.AccountService` */
  service: string;
  /** `GetUserInfo` */
  method: string;
  /** `mimamori.account.v1.AccountService/GetUserInfo`, the OpenTelemetry span name. */
  spanName: string;
  attributes: Attributes;
}

/** Splits a gRPC path (`/package.Service/Method`) into the names spans and metrics use. */
export function rpcName(path: string): RpcName {
  const [service = '', method = ''] = path.replace(/^\//, '').split('/');
  return {
    service,
    method,
    spanName: `${service}/${method}`,
    attributes: { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': method },
  };
}
