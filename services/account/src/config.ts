import { serviceProcessEnv } from '@mimamori/service-host';

/** The account service reads only the shared service variables so far. */
export const accountEnv = { ...serviceProcessEnv };
