import { serviceProcessEnv } from '@mimamori/service-host';

/** The crawler service reads only the shared service variables so far. */
export const crawlerEnv = { ...serviceProcessEnv };
