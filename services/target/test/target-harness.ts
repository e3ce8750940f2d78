import { createAccountService } from '@mimamori/account';
import type { EventBus } from '@mimamori/bus';
import { accountV1, targetV1 } from '@mimamori/contracts';
import type { Db } from '@mimamori/db';
import { createGateway, type Gateway } from '@mimamori/gateway';
import { createGrpcClient } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey, type SecretBox } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { startTestServiceHost, TestClock } from '@mimamori/test-fixtures';
import { createTargetService } from '../src/service.ts';
import { TargetBrowser } from './target-browser.ts';

export interface TargetHarness {
  db: Db;
  bus: EventBus;
  gateway: Gateway;
  clock: TestClock;
  secretBox: SecretBox;
  target: targetV1.TargetServiceClient;
  /** A signed-in user on a fresh trial of `plan` (Basic 5 unless told), with its user id. */
  signedIn(email: string, plan?: number): Promise<{ browser: TargetBrowser; userId: string }>;
  /** The target service's outbox rows with this subject, oldest first. */
  events(subject: string): Promise<{ id: string; payload: Uint8Array }[]>;
  close(): Promise<void>;
}

/**
 * The site path as it runs in the cluster, in this process: real PostgreSQL (a fresh
 * database), JetStream (a namespace of its own), account and target modules on the service host
 * talking gRPC, and the gateway answering fastify inject requests.
 */
export async function startTargetHarness(
  // proxyPool: whether the crawlers have a proxy pool; on by default, so tests of the plan's
  // proxy quota see the option honoured.
  options: { sweepIntervalMs?: number; proxyPool?: boolean } = {},
): Promise<TargetHarness> {
  const testHost = await startTestServiceHost('target-test');
  const { db, bus, logger, shutdown, host } = testHost;
  const secretBox = createSecretBox(generateSecretKey('test'));
  const clock = new TestClock();
  const accountService = await runService(
    createAccountService({
      db,
      logger,
      secretBox,
      clock,
      sweepIntervalMs: options.sweepIntervalMs ?? 3_600_000,
    }),
    host,
  );
  const targetService = await runService(
    createTargetService({ db, logger, secretBox, proxyPool: options.proxyPool ?? true }),
    host,
  );
  const account = createGrpcClient(accountV1.AccountServiceClient, accountService.grpcAddress);
  const target = createGrpcClient(targetV1.TargetServiceClient, targetService.grpcAddress);
  const gateway = await createGateway({ logger, account, target, isShuttingDown: shutdown.isShuttingDown });

  return {
    db,
    bus,
    gateway,
    clock,
    secretBox,
    target,
    async signedIn(email, plan = 3) {
      const browser = new TargetBrowser(gateway.app);
      await browser.get('/healthz');
      const password = 'abcd1234';
      const signUp = await browser.post('/api/signup', { email, password, agree: true, lang: 'en', plan });
      if (signUp.status !== 202) throw new Error(`sign-up failed: ${signUp.text}`);
      // The verification link's path is the account tests' business; here the address is just verified.
      await db.query('UPDATE account.users SET email_verified_at = now() WHERE lower(email) = lower($1)', [
        email,
      ]);
      const signIn = await browser.post('/api/signin', { email, password });
      if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.text}`);
      const info = await browser.get('/api/user_info');
      return { browser, userId: String(info.body.user_id) };
    },
    async events(subject) {
      const { rows } = await db.query<{ id: string; payload: Uint8Array }>(
        'SELECT id, payload FROM target.outbox WHERE subject = $1 ORDER BY seq',
        [subject],
      );
      return rows;
    },
    async close() {
      await gateway.close();
      account.close();
      target.close();
      await testHost.close();
    },
  };
}
