export { createStripe, stripeBilling } from './clients/stripe-billing.ts';
export { stripeInvoices } from './clients/stripe-invoices.ts';
export { syncStripePrices } from './clients/stripe-prices.ts';
export { accountEnv } from './config.ts';
export type { BillingProvider } from './domain/billing/billing-ports.ts';
export { type Clock, systemClock } from './domain/clock.ts';
// What an authenticator app shows for a secret at a time: the tests play the user's phone with it.
export { totpCode } from './domain/security/totp.ts';
export type { XOAuthConfig } from './domain/x-sign-in.ts';
export { targetUsageConsumer } from './events/site-usage-consumer.ts';
export { type AccountServiceOptions, createAccountService } from './service.ts';
