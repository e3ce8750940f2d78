import { openBlobStore } from '@mimamori/blob-store';
import {
  accountV1,
  auditV1,
  billingV1,
  chatLinkV1,
  closureV1,
  diffV1,
  filingsV1,
  invoiceV1,
  securityV1,
  targetV1,
  webhookV1,
  workspaceV1,
} from '@mimamori/contracts';
import { createGrpcClient } from '@mimamori/runtime';
import type { GatewayDeps } from '../gateway.ts';
import { previewCrawlers } from './preview-crawlers.ts';

export interface ServiceAddresses {
  account: string;
  crawler?: string | undefined;
  target?: string | undefined;
  diff?: string | undefined;
  filings?: string | undefined;
  /** Where the diff service keeps its pictures (file:<folder> or nats://host:port/<bucket>). */
  blobUrl: string;
}

export type ServiceClients = Pick<
  GatewayDeps,
  | 'account'
  | 'webhooks'
  | 'chatLinks'
  | 'workspaces'
  | 'billing'
  | 'invoices'
  | 'closure'
  | 'audit'
  | 'security'
  | 'preview'
  | 'target'
  | 'history'
  | 'filings'
> & {
  /** Closes every client and the blob store. */
  close(): Promise<void>;
};

/**
 * The gateway's gRPC clients of the services it fronts; a service without an address is not
 * called, and the routes needing it are left out.
 */
export async function connectServices(addresses: ServiceAddresses): Promise<ServiceClients> {
  const account = createGrpcClient(accountV1.AccountServiceClient, addresses.account);
  // Signed webhooks are served by the account service too.
  const webhooks = createGrpcClient(webhookV1.WebhookServiceClient, addresses.account);
  // And the chat links (ADR 0021).
  const chatLinks = createGrpcClient(chatLinkV1.ChatLinkServiceClient, addresses.account);
  // And workspaces, members and invitations (ADR 0033).
  const workspaces = createGrpcClient(workspaceV1.WorkspaceServiceClient, addresses.account);
  // Billing is a part of the account service (ADR 0012); it answers billing_off without Stripe keys.
  const billing = createGrpcClient(billingV1.BillingServiceClient, addresses.account);
  // Receipts too, from the provider's invoices.
  const invoices = createGrpcClient(invoiceV1.InvoiceServiceClient, addresses.account);
  // And the closing of an account.
  const closure = createGrpcClient(closureV1.AccountClosureServiceClient, addresses.account);
  // And the audit log (ADR 0036).
  const audit = createGrpcClient(auditV1.AuditServiceClient, addresses.account);
  // And two-factor sign-in, passkeys and the session list (ADR 0034).
  const security = createGrpcClient(securityV1.SecurityServiceClient, addresses.account);
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
  const filings = addresses.filings
    ? createGrpcClient(filingsV1.FilingsServiceClient, addresses.filings)
    : undefined;
  return {
    account,
    webhooks,
    chatLinks,
    workspaces,
    billing,
    invoices,
    closure,
    audit,
    security,
    preview,
    target,
    history,
    filings,
    async close() {
      for (const client of [
        account,
        webhooks,
        chatLinks,
        workspaces,
        preview,
        target,
        history?.client,
        filings,
        billing,
        invoices,
        closure,
        audit,
        security,
      ])
        client?.close();
      await history?.blobs.close();
    },
  };
}
