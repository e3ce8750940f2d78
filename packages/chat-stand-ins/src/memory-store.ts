import type { StandInRecord, StandInStore } from './stand-in.ts';

/** A stand-in store in memory, for tests: nothing survives the process. */
export function memoryStandInStore(): StandInStore {
  const records = new Map<string, StandInRecord[]>();
  const states = new Map<string, unknown>();
  let next = 1;
  return {
    async add(platform, record) {
      const stored = { id: next++, ...record };
      records.set(platform, [stored, ...(records.get(platform) ?? [])]);
      return stored;
    },
    async list(platform) {
      return [...(records.get(platform) ?? [])];
    },
    async readState<T>(platform: string, fallback: T) {
      // A copy, as a store that serialises would hand back: a change is kept only once written.
      return states.has(platform) ? (structuredClone(states.get(platform)) as T) : fallback;
    },
    async writeState(platform, state) {
      states.set(platform, structuredClone(state));
    },
  };
}
