import { serviceProcessEnv } from '@mimamori/service-host';

/** The target service reads only the shared service variables so far. */
export const targetEnv = { ...serviceProcessEnv };
