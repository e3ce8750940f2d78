import type { Logger } from './logger.ts';

export interface Shutdown {
  /** Adds something to stop; stops run in reverse registration order (last started, first stopped). */
  register(name: string, stop: () => Promise<void>): void;
  isShuttingDown(): boolean;
  /**
   * Stops everything registered, one at a time, and resolves when all stopped or the timeout
   * passed. Calling it again returns the same run.
   */
  run(reason: string): Promise<void>;
  /** SIGTERM or SIGINT runs the shutdown and exits 0 when it was clean; a second signal, a failed step or the timeout exits 1. */
  listen(): void;
}

export interface ShutdownOptions {
  logger: Logger;
  timeoutMs: number;
}

type Outcome = 'clean' | 'failed' | 'timed out';

/**
 * The one shutdown path of a process: what starts registers how it stops, and everything
 * stops the same way on a signal, a start failure or a test's teardown.
 */
export function createShutdown({ logger, timeoutMs }: ShutdownOptions): Shutdown {
  const steps: { name: string; stop: () => Promise<void> }[] = [];
  let running: Promise<Outcome> | undefined;
  let listening = false;

  async function stopAll(): Promise<Outcome> {
    let outcome: Outcome = 'clean';
    for (const step of steps.toReversed()) {
      logger.info({ step: step.name }, 'stopping');
      try {
        await step.stop();
        logger.info({ step: step.name }, 'stopped');
      } catch (error) {
        outcome = 'failed';
        logger.error({ err: error, step: step.name }, 'stop failed');
      }
    }
    return outcome;
  }

  function start(reason: string): Promise<Outcome> {
    if (running) return running;
    logger.info({ reason, steps: steps.length }, 'shutdown started');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<Outcome>((resolve) => {
      timer = setTimeout(() => resolve('timed out'), timeoutMs);
      timer.unref();
    });
    running = Promise.race([stopAll(), timeout]).then((outcome) => {
      clearTimeout(timer);
      if (outcome === 'timed out') logger.error({ timeoutMs }, 'shutdown timed out');
      else logger.info({ outcome }, 'shutdown complete');
      return outcome;
    });
    return running;
  }

  return {
    register(name, stop) {
      if (running) {
        // Started while shutting down (a signal arrived mid-start): stop it at once so
        // nothing is left running behind a finished shutdown.
        logger.warn({ step: name }, 'registered during shutdown; stopping it now');
        stop().catch((error: unknown) => logger.error({ err: error, step: name }, 'stop failed'));
        return;
      }
      steps.push({ name, stop });
    },
    isShuttingDown: () => running !== undefined,
    run: async (reason) => {
      await start(reason);
    },
    listen() {
      if (listening) return;
      listening = true;
      const onSignal = (signal: NodeJS.Signals) => {
        if (running) {
          logger.warn({ signal }, 'second signal; exiting now');
          process.exit(1);
        }
        void start(signal).then((outcome) => process.exit(outcome === 'clean' ? 0 : 1));
      };
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
    },
  };
}
