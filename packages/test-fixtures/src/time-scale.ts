/**
 * How many times faster the product's minutes pass in the system and e2e tests
 * (MIMAMORI_TIME_SCALE, refused unless NODE_ENV=test): a 1-minute site is checked every 2 s, its
 * failures back off in those minutes, and the consumers' ack waits, sweeps and filings polls
 * shrink alike. Slower than that, a browser check on a busy 2-core machine outlasts its interval.
 */
export const TEST_TIME_SCALE = 30;

/** The product's minute in real time under TEST_TIME_SCALE: the shortest check interval. */
export const TEST_MINUTE_MS = 60_000 / TEST_TIME_SCALE;

/** The environment that runs a product process on the tests' scaled time. */
export const testTimeEnv = { NODE_ENV: 'test', MIMAMORI_TIME_SCALE: String(TEST_TIME_SCALE) };
