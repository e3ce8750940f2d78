import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountService } from '@mimamori/account';
import { type BlobStore, createFileBlobStore } from '@mimamori/blob-store';
import { createJetStreamBus, type EventBus, namespacedBus } from '@mimamori/bus';
import { accountV1, type checksEventsV1, diffV1, targetV1 } from '@mimamori/contracts';
import { type Db, openPostgres } from '@mimamori/db';
import { createDiffService } from '@mimamori/diff';
import { snapshotCaptured } from '@mimamori/events';
import { createGrpcClient, createLogger, createShutdown, type Shutdown, unary } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { createTargetService } from '@mimamori/target';
import { createFreshDatabase, type FreshDatabase, testNatsUrl } from '@mimamori/test-fixtures';
import { createGateway, type Gateway } from '../../src/gateway.ts';
import { TestBrowser } from '../accounts/test-browser.ts';

/** The time the diff service stamps on check results; the tests set it per check. */
export class CheckClock {
  private at: Date | null = null;
  now(): Date {
    return this.at ? new Date(this.at) : new Date();
  }
  set(at: Date): void {
    this.at = at;
  }
}

export type Snapshot = Partial<checksEventsV1.SnapshotCaptured> & {
  checkId: string;
  targetId: string;
  userId: string;
};

export interface HistoryHarness {
  gateway: Gateway;
  clock: CheckClock;
  blobs: BlobStore;
  /** The database the services share (tests read the diff service's rows). */
  db: Db;
  /** A signed-in user on a fresh Basic 5 trial in `timezone`, with its user id. */
  signedIn(email: string, timezone: string): Promise<{ browser: TestBrowser; userId: string }>;
  /**
   * Publishes snapshots.captured as the crawler does, with the watch settings of the site's
   * current check template, and waits until the diff service judged it.
   */
  check(snapshot: Snapshot): Promise<{ outcome: string; update_id: string | null }>;
  close(): Promise<void>;
}

/**
 * The site-detail path as it runs in the cluster, in this process: real PostgreSQL (a fresh
 * database), JetStream (a namespace of its own), a file blob store, the account, target and diff
 * modules on the service host talking gRPC, and the gateway answering fastify inject requests.
 */
export async function startHistoryHarness(options: { imageLinkKey?: Buffer } = {}): Promise<HistoryHarness> {
  const logger = createLogger({ service: 'history-test', level: 'silent' });
  const database: FreshDatabase = await createFreshDatabase();
  const db: Db = openPostgres(database.url);
  const bus: EventBus = namespacedBus(
    await createJetStreamBus({ servers: testNatsUrl() }),
    `h${randomBytes(4).toString('hex')}`,
  );
  const blobDir = await mkdtemp(join(tmpdir(), 'history-blobs-'));
  const blobs = await createFileBlobStore(blobDir);
  const shutdown: Shutdown = createShutdown({ logger, timeoutMs: 5_000 });
  const secretBox = createSecretBox(generateSecretKey('test'));
  const clock = new CheckClock();
  const host = { db, bus, logger, shutdown, grpc: { host: '127.0.0.1', port: 0 } };
  const accountService = await runService(createAccountService({ db, logger, secretBox }), host);
  const targetService = await runService(createTargetService({ db, logger, secretBox }), host);
  const account = createGrpcClient(accountV1.AccountServiceClient, accountService.grpcAddress);
  const target = createGrpcClient(targetV1.TargetServiceClient, targetService.grpcAddress);
  const diffService = await runService(
    createDiffService({ db, bus, logger, blobs, now: () => clock.now() }),
    host,
  );
  const history = createGrpcClient(diffV1.HistoryServiceClient, diffService.grpcAddress);
  const gateway = await createGateway({
    logger,
    account,
    target,
    history: { client: history, blobs },
    imageLinkKey: options.imageLinkKey,
    isShuttingDown: shutdown.isShuttingDown,
  });

  // What the scheduler would send: the check template of the site's newest state.
  const currentWatch = async (targetId: string) => {
    let afterId = '';
    do {
      const page = await unary(target, 'listTargetStates', { afterId, limit: 1000 });
      const state = page.states.find((candidate) => candidate.targetId === targetId);
      if (state) return state.check?.watch;
      afterId = page.nextAfterId;
    } while (afterId);
    throw new Error(`the target service has no state for ${targetId}`);
  };

  return {
    gateway,
    clock,
    blobs,
    db,
    async signedIn(email, timezone) {
      const browser = new TestBrowser(gateway.app);
      await browser.get('/healthz');
      const password = 'abcd1234';
      const signUp = await browser.post('/api/signup', { email, password, agree: true, lang: 'en', plan: 3 });
      if (signUp.status !== 202) throw new Error(`sign-up failed: ${signUp.text}`);
      // The verification link is the account tests' business; here the address is just verified.
      await db.query('UPDATE account.users SET email_verified_at = now() WHERE lower(email) = lower($1)', [
        email,
      ]);
      const signIn = await browser.post('/api/signin', { email, password });
      if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.text}`);
      const userId = String((await browser.get('/api/user_info')).body.user_id);
      const zone = await browser.post('/api/account/update', { user_id: userId, timezone });
      if (zone.status !== 200) throw new Error(`time zone not saved: ${zone.text}`);
      return { browser, userId };
    },
    async check(snapshot) {
      const message: checksEventsV1.SnapshotCaptured = {
        eventId: snapshot.checkId,
        dueAt: clock.now(),
        capturedAt: clock.now(),
        fetchMode: 'browser',
        finalUrl: 'https://shop.example/news',
        httpStatus: 200,
        areas: [],
        pageScreenshotBlobKey: '',
        watch: await currentWatch(snapshot.targetId),
        ...snapshot,
      };
      await bus.publish(snapshotCaptured.subject, snapshotCaptured.encode(message), {
        msgId: snapshot.checkId,
      });
      for (let attempt = 0; attempt < 400; attempt++) {
        const { rows } = await db.query<{ outcome: string; update_id: string | null }>(
          'SELECT outcome, update_id FROM diff.check_results WHERE check_id = $1',
          [snapshot.checkId],
        );
        if (rows[0]) return rows[0];
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`no result for ${snapshot.checkId}`);
    },
    async close() {
      await gateway.close();
      account.close();
      target.close();
      history.close();
      await shutdown.run('test finished');
      await bus.close();
      await db.close();
      await database.drop();
      await rm(blobDir, { recursive: true, force: true });
    },
  };
}
