import { openBlobStore } from '@mimamori/blob-store';
import { accountV1, billingV1, diffV1, targetV1 } from '@mimamori/contracts';
import { createGrpcClient } from '@mimamori/runtime';
import type { GatewayDeps } from '../gateway.ts';
import { previewCrawlers } from './preview-crawlers.ts';

export interface ServiceAddresses {
  account: string;
  crawler?: string | undefined;
  target?: string | undefined;
  diff?: string | undefined;
  /** Where the diff service keeps its pictures (file:<folder> or nats://host:port/<bucket>). */
  blobUrl: string;
}

export type ServiceClients = Pick<GatewayDeps, 'account' | 'billing' | 'preview' | 'target' | 'history'> & {
  /** Closes every client and the blob store. */
  close(): Promise<void>;
};

/**
 * The gateway's gRPC clients of the services it fronts; a service without an address is not
 * called, and the routes needing it are left out.
 */
export async function connectServices(addresses: ServiceAddresses): Promise<ServiceClients> {
  const account = createGrpcClient(accountV1.AccountServiceClient, addresses.account);
  // Billing is a part of the account service (ADR 0012); it answers billing_off without Stripe keys.
  const billing = createGrpcClient(billingV1.BillingServiceClient, addresses.account);
  // Each preview session is served by the crawler that opened it (ADR 0011).
  const preview = addresses.crawler ? previewCrawlers(addresses.crawler) : undefined;
  const target = addresses.target
    ? createGrpcClient(targetV1.TargetServiceClient, addresses.target)
    : undefined;
  const history = addresses.diff
    ? {
        client: createGrpcClient(diffV1.HistoryServiceClient, addresses.diff),
        blobs: await openBlobStore(addresses.blobUrl),
      }
    : undefined;
  return {
    account,
    billing,
    preview,
    target,
    history,
    async close() {
      for (const client of [account, billing, preview, target, history?.client]) client?.close();
      await history?.blobs.close();
    },
  };
}
