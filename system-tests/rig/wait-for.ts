import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `probe` until it gives something (not undefined or false); generous deadlines, no timing claims. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = await probe();
    if (found !== undefined && found !== false) return found;
    await sleep(250);
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}
