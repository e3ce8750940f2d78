import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BlobStore, createFileBlobStore } from '@mimamori/blob-store';
import { createInProcessBus, createJetStreamBus, type EventBus, namespacedBus } from '@mimamori/bus';
import { type checksEventsV1, diffV1, targetV1, updatesEventsV1 } from '@mimamori/contracts';
import { type Db, openPglite, openPostgres } from '@mimamori/db';
import { checkCompleted, snapshotCaptured, streams } from '@mimamori/events';
import { createGrpcClient, createLogger, createShutdown, type Shutdown, unary } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { runService } from '@mimamori/service-host';
import { createTargetService } from '@mimamori/target';
import {
  type BusWatch,
  createFreshDatabase,
  type FreshDatabase,
  testNatsUrl,
  watchBus,
} from '@mimamori/test-fixtures';
import { createDiffService } from '../src/service.ts';

const QUOTA = { min60: 50, min10: 10, min1: 10, randomIp: 0, ss: 10, lineNotify: 0 };

export interface AreaSpec {
  areaId: string;
  options?: Record<string, unknown>;
}

/** The time the diff service stamps on check results; moved by the tests that page by day. */
export class TestClock {
  private at: Date | null = null;
  now(): Date {
    return this.at ? new Date(this.at) : new Date();
  }
  set(at: Date): void {
    this.at = at;
  }
}

export interface SiteExtras {
  rules?: unknown;
  screenshot?: boolean;
}

function siteSettings(areas: AreaSpec[], extra: SiteExtras): targetV1.TargetSettings {
  return {
    label: 'fixture',
    url: 'https://example.com/shop',
    intervalMinutes: 60,
    screenshot: extra.screenshot ?? false,
    useProxy: false,
    mailNotify: true,
    chatNotify: 'none',
    discordWebhookUrl: '',
    userAgentKind: 'none',
    userAgentValue: '',
    viewportWidth: 0,
    viewportHeight: 0,
    cookies: '',
    clearCookies: false,
    actions: [],
    areas: areas.map((area) => ({
      areaId: area.areaId,
      label: area.areaId,
      content: '',
      locator: {
        selector: `#${area.areaId}`,
        selectorType: 'css',
        frameSelector: '',
        frameSelectorType: '',
      },
      optionsJson: JSON.stringify(area.options ?? {}),
    })),
    rulesJson: extra.rules ? JSON.stringify(extra.rules) : '',
    // Screenshots are taken by the browser.
    fetchMode: extra.screenshot ? 'browser' : 'http',
    contentKind: '',
    paused: false,
    hasCookies: false,
    hasDiscordWebhook: false,
    failureAlertAfter: 0,
    silenceAlertDays: 0,
    alwaysRender: false,
    quietMode: 'account',
  };
}

export interface DiffHarness {
  db: Db;
  clock: TestClock;
  bus: EventBus;
  blobs: BlobStore;
  /** The file blob store's folder, to count its bytes. */
  blobDir: string;
  history: diffV1.HistoryServiceClient;
  /** Registers a v2 site through the target service's gRPC API; answers its id. */
  registerSite(
    userId: string,
    areas: AreaSpec[],
    extra?: { rules?: unknown; screenshot?: boolean },
  ): Promise<string>;
  /** Saves new settings for the site (which publishes targets.updated with a new revision). */
  updateSite(userId: string, targetId: string, areas: AreaSpec[], extra?: SiteExtras): Promise<void>;
  /** The watch settings in the site's check template as the target service last saved it. */
  watchOf(targetId: string): checksEventsV1.WatchSettings | undefined;
  /**
   * Publishes snapshots.captured as the crawler does (message id: the check id), carrying the
   * site's current watch settings unless the snapshot names its own.
   */
  publishSnapshot(
    snapshot: Partial<checksEventsV1.SnapshotCaptured> & {
      checkId: string;
      targetId: string;
      userId: string;
    },
  ): Promise<void>;
  /** Waits until the diff service recorded the check's result. */
  resultOf(checkId: string): Promise<{ outcome: string; error_code: string; update_id: string | null }>;
  /** Deletes the site in the target service (which publishes targets.deleted). */
  deleteSite(userId: string, targetId: string): Promise<void>;
  /** The diff service's outbox rows with this subject, oldest first. */
  events(subject: string): Promise<{ id: string; payload: Uint8Array }[]>;
  /**
   * The checks.completed of a check as they came over the bus (an unchanged check's does not
   * pass the outbox, ADR 0032), once at least one came.
   */
  completedFor(checkId: string): Promise<updatesEventsV1.CheckCompleted[]>;
  /** Waits until every consumer on the harness's JetStream namespace took all it was sent. */
  settled(): Promise<void>;
  changes(): Promise<updatesEventsV1.UpdateDetected[]>;
  close(): Promise<void>;
}

/**
 * The diff path as it runs in the cluster, in this process: real PostgreSQL (a fresh database),
 * JetStream (a namespace of its own), a file blob store, the target service whose check templates
 * give the snapshots their watch settings, and the HistoryService client. `embedded` runs it as
 * the single-process product does instead: on embedded PostgreSQL (PGlite) and the in-process bus.
 */
export async function startDiffHarness(options: { embedded?: boolean } = {}): Promise<DiffHarness> {
  const logger = createLogger({ service: 'diff-test', level: 'silent' });
  const database: FreshDatabase | null = options.embedded ? null : await createFreshDatabase();
  const db = database ? openPostgres(database.url) : await openPglite();
  const namespace = `d${randomBytes(4).toString('hex')}`;
  const bus: EventBus = database
    ? namespacedBus(await createJetStreamBus({ servers: testNatsUrl() }), namespace)
    : createInProcessBus();
  const busWatch: BusWatch | null = database ? await watchBus(testNatsUrl(), namespace) : null;
  const blobDir = await mkdtemp(join(tmpdir(), 'diff-blobs-'));
  const blobs = await createFileBlobStore(blobDir);
  const shutdown: Shutdown = createShutdown({ logger, timeoutMs: 5_000 });
  const host = { db, bus, logger, shutdown, grpc: { host: '127.0.0.1', port: 0 } };
  const clock = new TestClock();
  const secretBox = createSecretBox(generateSecretKey('test'));
  const targetService = await runService(createTargetService({ db, logger, secretBox }), host);
  const target = createGrpcClient(targetV1.TargetServiceClient, targetService.grpcAddress);
  const diffService = await runService(
    createDiffService({ db, bus, logger, blobs, now: () => clock.now() }),
    host,
  );
  const history = createGrpcClient(diffV1.HistoryServiceClient, diffService.grpcAddress);
  const completed: updatesEventsV1.CheckCompleted[] = [];
  await bus.consume(
    {
      stream: streams.checkResults.name,
      durable: 'diff-test-completed',
      filterSubject: checkCompleted.subject,
      ackWaitMs: 30_000,
      maxDeliver: 3,
    },
    async (message) => {
      completed.push(checkCompleted.decode(message.data));
    },
  );
  const caller = (userId: string) => ({
    userId,
    limits: QUOTA,
    held: false,
    lang: '',
    timeZone: '',
    historyUpdates: 0,
    historyDays: 0,
  });
  const watches = new Map<string, checksEventsV1.WatchSettings | undefined>();
  // What the scheduler would send: the check template of the site's newest state.
  const rememberWatch = async (targetId: string) => {
    let afterId = '';
    do {
      const page = await unary(target, 'listTargetStates', { afterId, limit: 1000 });
      const state = page.states.find((candidate) => candidate.targetId === targetId);
      if (state) {
        watches.set(targetId, state.check?.watch);
        return;
      }
      afterId = page.nextAfterId;
    } while (afterId);
    throw new Error(`the target service has no state for ${targetId}`);
  };

  const harness: DiffHarness = {
    db,
    clock,
    bus,
    blobs,
    blobDir,
    history,
    async registerSite(userId, areas, extra = {}) {
      const saved = await unary(target, 'registerTarget', {
        caller: caller(userId),
        settings: siteSettings(areas, extra),
      });
      const id = saved.saved?.targetId;
      if (!id) throw new Error('registration answered no id');
      await rememberWatch(id);
      return id;
    },
    async updateSite(userId, targetId, areas, extra = {}) {
      await unary(target, 'updateTarget', {
        caller: caller(userId),
        targetId,
        settings: siteSettings(areas, extra),
      });
      await rememberWatch(targetId);
    },
    watchOf(targetId) {
      return watches.get(targetId);
    },
    async publishSnapshot(snapshot) {
      const message: checksEventsV1.SnapshotCaptured = {
        eventId: snapshot.checkId,
        dueAt: new Date(),
        capturedAt: new Date(),
        fetchMode: 'http',
        finalUrl: 'https://example.com/shop',
        httpStatus: 200,
        areas: [],
        pageScreenshotBlobKey: '',
        watch: watches.get(snapshot.targetId),
        ...snapshot,
      };
      await bus.publish(snapshotCaptured.subject, snapshotCaptured.encode(message), {
        msgId: snapshot.checkId,
      });
    },
    async resultOf(checkId) {
      for (let attempt = 0; attempt < 400; attempt++) {
        const { rows } = await db.query<{ outcome: string; error_code: string; update_id: string | null }>(
          'SELECT outcome, error_code, update_id FROM diff.check_results WHERE check_id = $1',
          [checkId],
        );
        if (rows[0]) return rows[0];
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`no result for ${checkId}`);
    },
    async deleteSite(userId, targetId) {
      await unary(target, 'deleteTarget', { target: { caller: caller(userId), version: 2, targetId } });
    },
    async events(subject) {
      const { rows } = await db.query<{ id: string; payload: Uint8Array }>(
        'SELECT id, payload FROM diff.outbox WHERE subject = $1 ORDER BY seq',
        [subject],
      );
      return rows;
    },
    async completedFor(checkId) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const found = completed.filter((event) => event.checkId === checkId);
        if (found.length > 0 || Date.now() > deadline) return found;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async settled() {
      if (!busWatch) throw new Error('settled() reads JetStream; the embedded harness has none');
      const deadline = Date.now() + 15_000;
      while (!(await busWatch.idle())) {
        if (Date.now() > deadline) throw new Error('the consumers did not settle within 15 s');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async changes() {
      const rows = await harness.events('updates.detected');
      return rows.map((row) => updatesEventsV1.UpdateDetected.decode(row.payload));
    },
    async close() {
      await busWatch?.close();
      history.close();
      target.close();
      await shutdown.run('test finished');
      await bus.close();
      await db.close();
      await database?.drop();
      await rm(blobDir, { recursive: true, force: true });
    },
  };
  return harness;
}
