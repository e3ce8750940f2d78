// Whether the answer time tells if an address has an account: password-reset requests and sign-ups
// for a registered and an unknown address, BENCH_TRIES each (200 by default), interleaved so that
// load on the machine falls on both alike, through the gateway (fastify inject) and the account
// service over gRPC on real PostgreSQL and JetStream. The figure is the difference of the medians.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createAccountService } from '@mimamori/account';
import { createJetStreamBus, namespacedBus } from '@mimamori/bus';
import { accountV1 } from '@mimamori/contracts';
import { openPostgres } from '@mimamori/db';
import { createGateway } from '@mimamori/gateway';
import { createGrpcClient, createLogger, createShutdown } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
// The fixtures' index loads vitest (its test fixtures), which cannot run outside a test; these
// two files are plain.
import { createFreshDatabase } from '../packages/test-fixtures/src/fresh-database.ts';
import { testNatsUrl } from '../packages/test-fixtures/src/server-urls.ts';
import { percentile, report } from './report.ts';

const tries = Number(process.env.BENCH_TRIES ?? 200);
// A sign-up answers after 300 ms at the least, by design, so one lane of 200 tries spent two
// minutes waiting; lanes side by side wait together, each still interleaving both addresses.
const lanes = Number(process.env.BENCH_LANES ?? 8);
const REGISTERED = 'registered@example.com';
const PASSWORD = 'abcd1234';

const logger = createLogger({ service: 'account-timing-bench', level: 'silent' });
const database = await createFreshDatabase();
const db = openPostgres(database.url);
const bus = namespacedBus(
  await createJetStreamBus({ servers: testNatsUrl() }),
  `b${randomBytes(4).toString('hex')}`,
);
const shutdown = createShutdown({ logger, timeoutMs: 5_000 });
const host = { db, bus, logger, shutdown, grpc: { host: '127.0.0.1', port: 0 } };
const running = await runService(
  createAccountService({ db, logger, secretBox: createSecretBox(generateSecretKey('bench')) }),
  host,
);
const account = createGrpcClient(accountV1.AccountServiceClient, running.grpcAddress);
const gateway = await createGateway({ logger, account, isShuttingDown: shutdown.isShuttingDown });
const csrf = 'bench-csrf-token';

async function timedPost(url: string, payload: Record<string, unknown>, status: number): Promise<number> {
  const started = performance.now();
  const response = await gateway.app.inject({
    method: 'POST',
    url,
    payload,
    cookies: { csrf_token: csrf },
    headers: { 'x-csrf-token': csrf },
  });
  const ms = performance.now() - started;
  if (response.statusCode !== status)
    throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
  return ms;
}

const signUp = (email: string) =>
  timedPost('/api/signup', { email, password: PASSWORD, agree: true, lang: 'en' }, 202);
const resetRequest = (email: string) => timedPost('/api/reset_pass/request', { email, lang: 'en' }, 202);

await signUp(REGISTERED);
// Warm both paths (connections, JIT) before measuring.
for (let i = 0; i < 10; i++) {
  await resetRequest(REGISTERED);
  await resetRequest(`warm-${i}@example.com`);
}

const samples = {
  resetKnown: [] as number[],
  resetUnknown: [] as number[],
  signUpTaken: [] as number[],
  signUpNew: [] as number[],
};
const started = Date.now();
let next = 0;
await Promise.all(
  Array.from({ length: lanes }, async () => {
    for (let i = next++; i < tries; i = next++) {
      const unknown = `nobody-${i}-${randomBytes(3).toString('hex')}@example.com`;
      // Alternate which goes first, so neither path always runs on a warmer machine.
      if (i % 2 === 0) {
        samples.resetKnown.push(await resetRequest(REGISTERED));
        samples.resetUnknown.push(await resetRequest(unknown));
        samples.signUpTaken.push(await signUp(REGISTERED));
        samples.signUpNew.push(await signUp(unknown));
      } else {
        samples.resetUnknown.push(await resetRequest(unknown));
        samples.resetKnown.push(await resetRequest(REGISTERED));
        samples.signUpNew.push(await signUp(unknown));
        samples.signUpTaken.push(await signUp(REGISTERED));
      }
    }
  }),
);

const median = (values: number[]) => percentile(values, 0.5);
const round = (ms: number) => Math.round(ms * 100) / 100;
const figures = {
  tries,
  resetKnownMedianMs: round(median(samples.resetKnown)),
  resetUnknownMedianMs: round(median(samples.resetUnknown)),
  resetMedianDifferenceMs: round(Math.abs(median(samples.resetKnown) - median(samples.resetUnknown))),
  signUpTakenMedianMs: round(median(samples.signUpTaken)),
  signUpNewMedianMs: round(median(samples.signUpNew)),
  signUpMedianDifferenceMs: round(Math.abs(median(samples.signUpTaken) - median(samples.signUpNew))),
  seconds: Math.round((Date.now() - started) / 1000),
};
report(
  `reset and sign-up answer times, registered vs unknown address (${tries} tries each)`,
  [
    {
      request: 'reset',
      registeredMs: figures.resetKnownMedianMs,
      unknownMs: figures.resetUnknownMedianMs,
      differenceMs: figures.resetMedianDifferenceMs,
    },
    {
      request: 'sign-up',
      registeredMs: figures.signUpTakenMedianMs,
      unknownMs: figures.signUpNewMedianMs,
      differenceMs: figures.signUpMedianDifferenceMs,
    },
  ],
  figures,
);
// `pnpm test:security` prints this beside the other security figures.
const resultsDir = resolve(import.meta.dirname, '../test-results/security');
await mkdir(resultsDir, { recursive: true });
await writeFile(join(resultsDir, 'account-timing.json'), `${JSON.stringify(figures, null, 2)}\n`);

await gateway.close();
account.close();
await shutdown.run('bench finished');
await bus.close();
await db.close();
await database.drop();
