import type { BlobStore } from '@mimamori/blob-store';
import type { CatalogEntry, EventBus } from '@mimamori/bus';
import { checkStateKept, runCheck, snapshotCaptured } from '@mimamori/events';
import type { Logger, Metrics } from '@mimamori/runtime';
import type { SecretBox } from '@mimamori/secret-box';
import { ACK_WAIT_FLOOR_MS } from '@mimamori/service-host';
import { InvalidJobError, openCheckJob } from '../domain/open-check-job.ts';
import type { FetchResult, PageFetcher } from '../domain/page-fetcher.ts';
import { keptStateEvent, snapshotEvent } from '../domain/snapshot-event.ts';

export interface CheckConsumerDeps {
  bus: EventBus;
  blobs: BlobStore;
  secrets: SecretBox | undefined;
  logger: Logger;
  fetchers: { http: PageFetcher; browser?: PageFetcher };
  /** Upstream proxies for sites that use one; one is picked at random per check. */
  proxies: readonly string[];
  /** Checks this process runs at once. */
  concurrency: number;
  /** Redelivery when a crawler stops answering; heartbeats keep a long check alive. */
  ackWaitMs: number;
  metrics: Metrics;
}

/**
 * Deliveries of one check: a crawler that stops answering (its ack wait runs out) hands the check
 * to another. A failure is never handed back: the fetcher's own tries (three at most, a second
 * and two apart) are all a failing check asks of the site (docs/product.md#failure-alerts).
 */
const MAX_DELIVER = 3;

/**
 * Runs checks from the work queue: open the job, fetch with the mode's fetcher while telling
 * the queue it is still working, publish what it leaves for the next checks and the snapshot
 * (message ids from the check id, so a check redelivered after a crash publishes once), then
 * ack. A failure that may pass later is handed back with a delay a few times, then recorded; a
 * permanent one is recorded and the message terminated.
 */
export function checkConsumer(deps: CheckConsumerDeps): CatalogEntry {
  const checks = deps.metrics.counter({
    name: 'mimamori_checks_total',
    help: 'Checks run, by fetch mode and result (ok, failed).',
    labelNames: ['mode', 'result'],
  });
  const duration = deps.metrics.histogram({
    name: 'mimamori_check_duration_seconds',
    help: 'Time to fetch and read one check, by fetch mode.',
    labelNames: ['mode'],
    buckets: [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120],
  });
  const pending = deps.metrics.gauge({
    name: 'mimamori_checks_pending',
    help: 'Checks waiting in the work queue for a crawler, as of the last one this crawler took.',
  });
  const pickProxy = () =>
    deps.proxies.length > 0 ? deps.proxies[Math.floor(Math.random() * deps.proxies.length)] : undefined;
  return {
    stream: runCheck.stream,
    durable: 'crawler-checks',
    subject: runCheck.subject,
    maxDeliver: MAX_DELIVER,
    ackWaitMs: deps.ackWaitMs,
    concurrency: deps.concurrency,
    async handler(message) {
      const job = runCheck.decode(message.data);
      const log = deps.logger.child({
        checkId: job.checkId,
        targetId: job.targetId,
        delivery: message.deliveryCount,
      });
      if (message.pending !== undefined) pending.set(message.pending);
      // A third of the ack wait, or of the host's floor for it: under a time scale (tests) the host
      // shortens this entry's ack wait down to that floor.
      const heartbeatMs = Math.max(500, Math.floor(Math.min(deps.ackWaitMs, ACK_WAIT_FLOOR_MS) / 3));
      const heartbeat = setInterval(() => message.working(), heartbeatMs);
      const abort = new AbortController();
      // The job's own word for its mode, so an unknown mode shows up as such rather than as http.
      const mode = job.fetchMode === 'browser' || job.fetchMode === 'http' ? job.fetchMode : 'unknown';
      const endTimer = duration.startTimer({ mode });
      try {
        const result = await performCheck(job, abort.signal);
        endTimer();
        checks.inc({ mode, result: result.ok ? 'ok' : 'failed' });
        const event = await snapshotEvent(job, result, { blobs: deps.blobs, now: new Date() });
        await deps.bus.publish(snapshotCaptured.subject, snapshotCaptured.encode(event), {
          msgId: job.checkId,
        });
        // What the check leaves for the next ones goes after the snapshot, so the next check is not
        // sent with this one's digest before the diff service can have its snapshot; under its own
        // id, so a crash in between redelivers the check and the snapshot's copy is dropped.
        const kept = keptStateEvent(job, result, deps.secrets);
        if (kept) {
          await deps.bus.publish(checkStateKept.subject, checkStateKept.encode(kept), {
            msgId: kept.eventId,
          });
        }
        if (result.ok) {
          // Debug, not info: a line per check is most of a crawler's log at its rate (ADR 0037).
          log.debug({ areas: result.areas.length, mode: job.fetchMode }, 'snapshot captured');
          message.ack();
        } else if (result.retryable) {
          log.warn({ code: result.code, detail: result.detail }, 'check failed after its tries');
          message.ack();
        } else {
          log.warn({ code: result.code, detail: result.detail }, 'check failed');
          message.term(`${result.code}: ${result.detail}`);
        }
      } finally {
        clearInterval(heartbeat);
        abort.abort();
      }
    },
  };

  async function performCheck(
    job: ReturnType<typeof runCheck.decode>,
    signal: AbortSignal,
  ): Promise<FetchResult> {
    let request: ReturnType<typeof openCheckJob>;
    try {
      request = openCheckJob(job, deps.secrets, pickProxy);
    } catch (error) {
      if (error instanceof InvalidJobError)
        return { ok: false, code: 'invalid_job', detail: error.message, retryable: false };
      throw error;
    }
    const fetcher = request.mode === 'browser' ? deps.fetchers.browser : deps.fetchers.http;
    if (!fetcher) {
      return {
        ok: false,
        code: 'invalid_job',
        detail: 'browser mode is not available in this crawler',
        retryable: false,
      };
    }
    return fetcher.fetch(request, signal);
  }
}
