// One namespace per proto file: `<service>V1` for a gRPC API (mimamori/<service>/v1/<service>.proto),
// `<stream>EventsV1` for an event file (mimamori/events/v1/<stream>.proto). Namespaces keep the
// helpers every generated file declares (protobufPackage, MessageFns, DeepPartial, …) apart.
export * as accountV1 from './gen/mimamori/account/v1/account.ts';
// The workspace's audit log, served by the account service (docs/adr/0036-audit-log.md).
export * as auditV1 from './gen/mimamori/account/v1/audit.ts';
// Billing, served by the account service (docs/adr/0012-billing.md).
export * as billingV1 from './gen/mimamori/account/v1/billing.ts';
// Chat links, served by the account service (docs/adr/0021-chat-links.md).
export * as chatLinkV1 from './gen/mimamori/account/v1/chat_link.ts';
// The user closing their own account, served by the account service (docs/product.md#deleting-the-account).
export * as closureV1 from './gen/mimamori/account/v1/closure.ts';
// Receipts from the payment provider's invoices, served by the account service (docs/billing.md#receipts).
export * as invoiceV1 from './gen/mimamori/account/v1/invoice.ts';
// Signed webhooks, served by the account service (docs/webhooks.md).
// Two-factor sign-in, passkeys and the session list, served by the account service (docs/adr/0034-two-factor-passkeys-sessions.md).
export * as securityV1 from './gen/mimamori/account/v1/security.ts';
export * as webhookV1 from './gen/mimamori/account/v1/webhook.ts';
// Workspaces, members and invitations, served by the account service (docs/adr/0033-workspaces-are-accounts.md).
export * as workspaceV1 from './gen/mimamori/account/v1/workspace.ts';
export * as crawlerV1 from './gen/mimamori/crawler/v1/crawler.ts';
export * as diffV1 from './gen/mimamori/diff/v1/history.ts';
export * as accountsEventsV1 from './gen/mimamori/events/v1/accounts.ts';
export * as checksEventsV1 from './gen/mimamori/events/v1/checks.ts';
export * as filingsEventsV1 from './gen/mimamori/events/v1/filings.ts';
export * as targetsEventsV1 from './gen/mimamori/events/v1/targets.ts';
export * as updatesEventsV1 from './gen/mimamori/events/v1/updates.ts';
export * as filingsV1 from './gen/mimamori/filings/v1/filings.ts';
export * as targetV1 from './gen/mimamori/target/v1/target.ts';
