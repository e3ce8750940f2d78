import { createLogger } from '@mimamori/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/gateway.ts';
import { type AccountHarness, PUBLIC_URL, startAccountHarness } from './account-harness.ts';

let harness: AccountHarness;
let gateway: Gateway;
const lines: { level: number; msg: string }[] = [];

beforeAll(async () => {
  harness = await startAccountHarness();
  // A gateway of its own whose log is kept, in front of the same account service (no X configured).
  const logger = createLogger({
    service: 'gateway-test',
    level: 'debug',
    destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
  });
  gateway = await createGateway({
    logger,
    account: harness.account,
    publicUrl: PUBLIC_URL,
    isShuttingDown: () => false,
  });
});

afterAll(async () => {
  await gateway?.app.close();
  await harness?.close();
});

describe('sign-in with X when it is not configured', () => {
  it('sends the browser back to sign-in without a warning, as the sign-in page probes it on every load', async () => {
    const start = await gateway.app.inject({ method: 'GET', url: '/api/signin/x' });
    expect(start.statusCode).toBe(302);
    expect(start.headers.location).toBe('/signin?error=x_sign_in_failed');
    // pino level 40 is warn.
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
  });
});
