import type { Db } from '@mimamori/db';
import type { Logger, Metrics } from '@mimamori/runtime';
import { type FilingSource, SourceError } from '../domain/filing.ts';
import { nextPollDelay } from '../domain/pacing.ts';
import type { FilingsStore } from '../store/filings-store.ts';
import { type PollOutcome, pollSource } from './poll-source.ts';

export interface SourcePollerOptions {
  db: Db;
  store: FilingsStore;
  logger: Logger;
  metrics: Metrics;
  sources: readonly FilingSource[];
  /** Time between polls of a source that answers. */
  intervalMs: number;
  /** The longest wait after failures in a row. */
  backoffMaxMs: number;
  now?: () => Date;
}

export interface SourcePoller {
  start(): void;
  /** Polls one source now, outside the schedule (tests, and the first poll after a follow). */
  pollNow(source: FilingSource['name']): Promise<PollOutcome>;
  stop(): Promise<void>;
}

/**
 * Polls each source on its own timer: every interval while it answers, backing off
 * exponentially while it fails. A failure is logged and counted by source and kind
 * (filings_source_errors_total) and never taken for "no filings": nothing is recorded.
 */
export function createSourcePoller(options: SourcePollerOptions): SourcePoller {
  const { db, store, logger, metrics } = options;
  const now = options.now ?? (() => new Date());
  const errors = metrics.counter({
    name: 'filings_source_errors_total',
    help: 'Failed polls of a filings source, by source and kind (rate_limited, refused, unavailable, bad_answer).',
    labelNames: ['source', 'kind'] as const,
  });
  const published = metrics.counter({
    name: 'filings_notices_total',
    help: 'filings.published events written, by source.',
    labelNames: ['source'] as const,
  });
  const timers = new Map<string, NodeJS.Timeout>();
  const failures = new Map<string, number>();
  const running = new Map<string, Promise<PollOutcome>>();
  let stopped = false;

  const poll = (source: FilingSource): Promise<PollOutcome> => {
    // One poll of a source at a time: a pollNow during a scheduled poll waits for that one.
    const inFlight = running.get(source.name);
    if (inFlight)
      return inFlight.then(
        () => poll(source),
        () => poll(source),
      );
    const run = pollSource(db, store, source, now)
      .then((outcome) => {
        failures.set(source.name, 0);
        if (outcome.notices > 0) published.inc({ source: source.name }, outcome.notices);
        return outcome;
      })
      .catch((error: unknown) => {
        failures.set(source.name, (failures.get(source.name) ?? 0) + 1);
        const kind = error instanceof SourceError ? error.kind : 'internal';
        errors.inc({ source: source.name, kind });
        logger.warn(
          { err: error, source: source.name, kind, failuresInRow: failures.get(source.name) },
          'filings source poll failed; nothing recorded, backing off',
        );
        throw error;
      })
      .finally(() => running.delete(source.name));
    running.set(source.name, run);
    return run;
  };

  const schedule = (source: FilingSource, delayMs: number) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      poll(source)
        .catch(() => undefined)
        .finally(() =>
          schedule(
            source,
            nextPollDelay(options.intervalMs, failures.get(source.name) ?? 0, options.backoffMaxMs),
          ),
        );
    }, delayMs);
    timer.unref();
    timers.set(source.name, timer);
  };

  return {
    start() {
      // Spread the first polls so the sources are not all asked in the same instant; the first
      // waits for the host to have migrated the schema.
      options.sources.forEach((source, i) => {
        schedule(source, Math.round((options.intervalMs / Math.max(1, options.sources.length)) * i) + 5_000);
      });
    },
    pollNow(name) {
      const source = options.sources.find((candidate) => candidate.name === name);
      if (!source) return Promise.reject(new Error(`no ${name} source configured`));
      return poll(source);
    },
    async stop() {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      await Promise.allSettled(running.values());
    },
  };
}
