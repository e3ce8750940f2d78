export { accountProfileClient } from './clients/account-profile-client.ts';
export { chatLinkBreaker } from './clients/chat-link-client.ts';
export { notifierEnv } from './config.ts';
export { systemClock as notifierClock } from './domain/site-quiet-hours.ts';
export { createNotifierService, type NotifierDeps, type UpdateDeliverySetup } from './service.ts';
