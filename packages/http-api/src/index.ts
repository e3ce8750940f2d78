/**
 * The product's HTTP API shapes: each request and answer of the gateway defined once, as zod
 * schemas. The gateway validates with them and generates /api/openapi.json from them; the SPA
 * takes its types from them (type-only imports, so no schema code reaches the bundle).
 */
export * from './account.ts';
export * from './account-data.ts';
export * from './api-access.ts';
export * from './api-error.ts';
export * from './audit.ts';
export * from './billing.ts';
export * from './chat-link.ts';
export * from './edit-conflict.ts';
export * from './filings.ts';
export * from './history.ts';
export * from './invoice.ts';
export * from './operator.ts';
export * from './page-steps.ts';
export * from './preview.ts';
export * from './quiet-hours.ts';
export * from './security.ts';
export * from './service.ts';
export * from './site-row.ts';
export * from './target.ts';
export * from './user-info.ts';
export * from './webhook.ts';
export * from './workspace.ts';
