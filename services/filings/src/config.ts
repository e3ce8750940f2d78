import { serviceProcessEnv } from '@mimamori/service-host';

/** The filings service reads only the shared service variables so far. */
export const filingsEnv = { ...serviceProcessEnv };
