import { serviceProcessEnv } from '@mimamori/service-host';

/** The scheduler service reads only the shared service variables so far. */
export const schedulerEnv = { ...serviceProcessEnv };
