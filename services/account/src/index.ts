export { accountEnv } from './config.ts';
export { type Clock, systemClock } from './domain/clock.ts';
export type { XOAuthConfig } from './domain/x-sign-in.ts';
export { siteUsageConsumer } from './events/site-usage-consumer.ts';
export { type AccountServiceOptions, createAccountService } from './service.ts';
