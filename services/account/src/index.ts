export { accountEnv } from './config.ts';
export { createAccountService } from './service.ts';
