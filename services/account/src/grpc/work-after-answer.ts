import type { Logger } from '@mimamori/runtime';

/**
 * Work a call does after it has answered, so the answer's time does not depend on it: what a
 * reset request or a sign-up does only for a registered address would otherwise tell who has an
 * account. Shutdown waits for what is still running.
 */
export interface WorkAfterAnswer {
  run(name: string, work: () => Promise<void>): void;
  settled(): Promise<void>;
}

export function workAfterAnswer(logger: Logger): WorkAfterAnswer {
  const running = new Set<Promise<void>>();
  return {
    run(name, work) {
      const done: Promise<void> = work()
        .catch((error: unknown) => logger.error({ err: error, work: name }, 'work after the answer failed'))
        .finally(() => running.delete(done));
      running.add(done);
    },
    async settled() {
      await Promise.all([...running]);
    },
  };
}
