import type { StandInRecord, StandInStore } from './stand-in.ts';

/** Records kept per platform; the oldest go first. */
const KEPT = 200;

/** A stand-in store in memory: for tests, and for runs where a restart may forget. */
export function memoryStandInStore(): StandInStore {
  const records = new Map<string, StandInRecord[]>();
  const states = new Map<string, unknown>();
  let next = 1;
  return {
    async add(platform, record) {
      const saved: StandInRecord = { id: next++, ...record };
      const list = records.get(platform) ?? [];
      list.unshift(saved);
      list.splice(KEPT);
      records.set(platform, list);
      return saved;
    },
    async list(platform) {
      return [...(records.get(platform) ?? [])];
    },
    async readState<T>(platform: string, fallback: T) {
      return states.has(platform) ? structuredClone(states.get(platform) as T) : fallback;
    },
    async writeState(platform, state) {
      states.set(platform, structuredClone(state));
    },
  };
}
