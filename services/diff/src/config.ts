import { serviceProcessEnv } from '@mimamori/service-host';

/** The diff service reads only the shared service variables so far. */
export const diffEnv = { ...serviceProcessEnv };
