import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BlobStore, createFileBlobStore } from '@mimamori/blob-store';
import { type BusMessage, createInProcessBus, type EventBus, startConsumers } from '@mimamori/bus';
import { checksEventsV1 } from '@mimamori/contracts';
import { checkStateKept, runCheck, snapshotCaptured, streams } from '@mimamori/events';
import { createLogger, createMetrics } from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sealingContext } from '../domain/open-check-job.ts';
import type { FetchRequest, FetchResult, PageFetcher } from '../domain/page-fetcher.ts';
import { INLINE_AREA_BYTES } from '../domain/snapshot-event.ts';
import { checkConsumer } from './check-consumer.ts';

// The consumer on the in-process bus with a scripted fetcher: what it publishes, acks, naks
// and terminates for each kind of outcome.
let bus: EventBus;
let blobs: BlobStore;
let folder: string;
const secrets = createSecretBox(generateSecretKey('k1'));

beforeEach(async () => {
  bus = createInProcessBus();
  await bus.declareStreams([streams.checks, streams.snapshots]);
  folder = await mkdtemp(join(tmpdir(), 'crawler-blobs-'));
  blobs = await createFileBlobStore(folder);
});

afterEach(async () => {
  await bus.close();
  await rm(folder, { recursive: true, force: true });
});

async function run(
  outcome: (request: FetchRequest) => FetchResult,
  job: Partial<checksEventsV1.RunCheck> = {},
) {
  const seen: FetchRequest[] = [];
  const fetcher: PageFetcher = {
    async fetch(request) {
      seen.push(request);
      return outcome(request);
    },
    async close() {},
  };
  const snapshots: checksEventsV1.SnapshotCaptured[] = [];
  const keptStates: checksEventsV1.CheckStateKept[] = [];
  const deadLetters: BusMessage[] = [];
  const metrics = createMetrics({ service: 'crawler-test' });
  const stop = await startConsumers(bus, [
    checkConsumer({
      bus,
      blobs,
      secrets,
      logger: createLogger({ service: 'crawler-test', level: 'silent' }),
      fetchers: { http: fetcher },
      proxies: [],
      concurrency: 2,
      ackWaitMs: 5_000,
      metrics,
    }),
    {
      stream: snapshotCaptured.stream,
      durable: 'test-snapshots',
      subject: snapshotCaptured.subject,
      maxDeliver: 1,
      ackWaitMs: 5_000,
      handler: async (message) => {
        snapshots.push(snapshotCaptured.decode(message.data));
      },
    },
    {
      stream: checkStateKept.stream,
      durable: 'test-kept-states',
      subject: checkStateKept.subject,
      maxDeliver: 1,
      ackWaitMs: 5_000,
      handler: async (message) => {
        keptStates.push(checkStateKept.decode(message.data));
      },
    },
  ]);
  const checkId = 't1:2026-11-23T10:00:00.000Z';
  const request = checksEventsV1.RunCheck.fromPartial({
    checkId,
    targetId: 't1',
    userId: 'u1',
    dueAt: new Date('2026-11-23T10:00:00.000Z'),
    url: 'https://example.jp/',
    fetchMode: 'http',
    userAgentKind: 'none',
    areas: [{ areaId: 'a1', locator: { selector: '#a', selectorType: 'css' } }],
    screenshot: 'none',
    ...job,
  });
  await bus.publish(runCheck.subject, runCheck.encode(request), { msgId: checkId });
  const consumeDeadLetters = await bus.consume(
    { stream: 'DEADLETTER', durable: 'test-dead', ackWaitMs: 5_000, maxDeliver: 1 },
    async (message) => {
      deadLetters.push(message);
    },
  );
  const stopAll = async () => {
    await stop();
    await consumeDeadLetters.stop();
  };
  return { seen, snapshots, keptStates, deadLetters, metrics, stop: stopAll };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
};

const watch: checksEventsV1.WatchSettings = {
  areas: [{ areaId: 'a1', optionsJson: '{"excludeNumbers":true}' }],
  rulesJson: '',
  screenshot: false,
  keepUpdates: 0,
  keepCheckDays: 0,
};

describe('check consumer', () => {
  it('publishes one snapshot with small areas inline and large ones in the blob store, and seals the session', async () => {
    const large = 'x'.repeat(INLINE_AREA_BYTES);
    const { snapshots, keptStates, seen, stop } = await run(
      () => ({
        ok: true,
        finalUrl: 'https://example.jp/',
        status: 200,
        areas: [
          { areaId: 'a1', found: true, html: '<p>small</p>', text: 'small' },
          { areaId: 'a2', found: true, html: `<p>${large}</p>`, text: large },
        ],
        sessionState: 'session-cookies',
      }),
      { sealedCookies: secrets.seal('sid=1', sealingContext.cookies('t1')), watch },
    );
    await until(() => snapshots.length === 1);
    await stop();
    expect(seen[0]?.cookies).toBe('sid=1');
    const [snapshot] = snapshots;
    expect(snapshot?.error).toBeUndefined();
    expect(snapshot?.areas[0]).toMatchObject({
      areaId: 'a1',
      html: '<p>small</p>',
      text: 'small',
      htmlBlobKey: '',
    });
    expect(snapshot?.areas[1]).toMatchObject({ areaId: 'a2', html: '', text: '' });
    const textKey = snapshot?.areas[1]?.textBlobKey ?? '';
    expect(textKey).toBe('snapshots/t1/2026-11-23T10-00-00.000Z/a2.txt');
    expect(Buffer.from((await blobs.get(textKey))?.data ?? []).toString()).toBe(large);
    // The session it kept went to the scheduler on its own, published beside the snapshot.
    expect(keptStates).toHaveLength(1);
    expect(keptStates[0]).toMatchObject({ eventId: `state:${snapshot?.checkId}`, targetId: 't1' });
    expect(secrets.open(keptStates[0]?.sealedSessionState ?? '', sealingContext.session('t1'))).toBe(
      'session-cookies',
    );
    // The diff service judges the snapshot with the settings the check was planned with.
    expect(snapshot?.watch).toEqual(watch);
  });

  it('records a permanent failure and terminates the check', async () => {
    const { snapshots, keptStates, deadLetters, seen, metrics, stop } = await run(() => ({
      ok: false,
      code: 'element_not_found',
      detail: 'element not found: CSS "#a"',
      retryable: false,
      areaId: 'a1',
    }));
    await until(() => snapshots.length === 1 && deadLetters.length === 1);
    await stop();
    expect(seen).toHaveLength(1);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^mimamori_checks_total\{[^}]*mode="http",result="failed"[^}]*\} 1$/m);
    expect(text).toMatch(/^mimamori_check_duration_seconds_count\{[^}]*mode="http"[^}]*\} 1$/m);
    expect(snapshots[0]?.error).toEqual({
      code: 'element_not_found',
      detail: 'element not found: CSS "#a"',
      retryable: false,
      areaId: 'a1',
    });
    // A failed check leaves nothing for the next ones.
    expect(keptStates).toEqual([]);
  });

  it('carries the watch settings into a failed check too', async () => {
    const { snapshots, stop } = await run(
      () => ({ ok: false, code: 'timeout', detail: 'no answer in 30 s', retryable: false }),
      { watch },
    );
    await until(() => snapshots.length === 1);
    await stop();
    expect(snapshots[0]?.watch).toEqual(watch);
  });

  it('fails a browser-mode check clearly while no browser fetcher is wired', async () => {
    const { snapshots, seen, stop } = await run(() => ({ ok: true, finalUrl: '', status: 200, areas: [] }), {
      fetchMode: 'browser',
    });
    await until(() => snapshots.length === 1);
    await stop();
    expect(seen).toEqual([]);
    expect(snapshots[0]?.error).toMatchObject({
      code: 'invalid_job',
      detail: 'browser mode is not available in this crawler',
    });
  });
});
