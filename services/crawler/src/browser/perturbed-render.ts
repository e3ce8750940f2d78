/**
 * The init script of a verification render (ADR 0031): the page's clock is moved and its random
 * numbers are pushed into the low or the high half, so an area drawn from the clock or from
 * chance (a date, a countdown, an A/B draw with `Math.random() < 0.5`) reads differently from the
 * real render, while an area drawn from the page's answers reads the same. Runs before any of
 * the page's scripts, in every frame.
 */
export function perturbationScript(half: 'low' | 'high'): string {
  // Moved by different amounts in every field (year, month, day, hour, minute, second), both
  // away from the real clock and from each other.
  const offsetMs =
    half === 'low' ? -((400 * 24 + 13) * 3_600_000 + 17 * 60_000 + 19_000) : 25 * 3_600_000 + 61_000 + 1_001;
  return `(() => {
  const offset = ${offsetMs};
  const high = ${half === 'high'};
  let seed = 0x2545f491;
  const next = () => {
    seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5;
    return ((seed >>> 0) % 1000000) / 2000000 + (high ? 0.5 : 0);
  };
  Math.random = next;
  if (globalThis.crypto) {
    const fill = globalThis.crypto.getRandomValues.bind(globalThis.crypto);
    globalThis.crypto.getRandomValues = (array) => {
      fill(array);
      const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      for (let i = 0; i < bytes.length; i++) bytes[i] = high ? bytes[i] | 0x80 : bytes[i] & 0x7f;
      return array;
    };
    if (globalThis.crypto.randomUUID) {
      globalThis.crypto.randomUUID = () => {
        const b = globalThis.crypto.getRandomValues(new Uint8Array(16));
        const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
        return hex.slice(0, 8) + '-' + hex.slice(8, 12) + '-4' + hex.slice(13, 16) + '-a' + hex.slice(17, 20) + '-' + hex.slice(20);
      };
    }
  }
  const RealDate = Date;
  const realNow = RealDate.now;
  function MovedDate(...args) {
    if (!new.target) return new RealDate(realNow() + offset).toString();
    return args.length === 0 ? new RealDate(realNow() + offset) : new RealDate(...args);
  }
  MovedDate.prototype = RealDate.prototype;
  MovedDate.now = () => realNow() + offset;
  MovedDate.parse = RealDate.parse;
  MovedDate.UTC = RealDate.UTC;
  Object.defineProperty(MovedDate.prototype, 'constructor', { value: MovedDate });
  globalThis.Date = MovedDate;
})();`;
}

const READS = 'mimamori.reads';

/**
 * Run before the page's own scripts in every check that records its requests: notes whether the
 * page read the clock or drew random numbers, without changing what either gives. A page that
 * did neither reads the same from the same answers; one that did is rendered twice more with
 * both moved before its recording is trusted.
 */
export const READS_SCRIPT = `(() => {
  const key = Symbol.for(${JSON.stringify(READS)});
  if (globalThis[key]) return;
  const reads = { clock: false, chance: false };
  Object.defineProperty(globalThis, key, { value: reads });
  const random = Math.random;
  Math.random = function () { reads.chance = true; return random.call(Math); };
  if (globalThis.crypto) {
    const fill = globalThis.crypto.getRandomValues.bind(globalThis.crypto);
    globalThis.crypto.getRandomValues = (array) => { reads.chance = true; return fill(array); };
    if (globalThis.crypto.randomUUID) {
      const uuid = globalThis.crypto.randomUUID.bind(globalThis.crypto);
      globalThis.crypto.randomUUID = () => { reads.chance = true; return uuid(); };
    }
  }
  const RealDate = Date;
  const now = RealDate.now;
  function WatchedDate(...args) {
    if (args.length === 0 || !new.target) reads.clock = true;
    if (!new.target) return RealDate();
    return new RealDate(...args);
  }
  WatchedDate.prototype = RealDate.prototype;
  WatchedDate.now = () => { reads.clock = true; return now(); };
  WatchedDate.parse = RealDate.parse;
  WatchedDate.UTC = RealDate.UTC;
  globalThis.Date = WatchedDate;
})();`;

/** Whether any frame of the page read the clock or chance since it loaded. */
export async function readClockOrChance(
  frames: readonly { evaluate<R>(script: string): Promise<R> }[],
): Promise<boolean> {
  const reads = await Promise.all(
    frames.map((frame) =>
      frame
        .evaluate<boolean>(
          `(() => { const r = globalThis[Symbol.for(${JSON.stringify(READS)})]; return !r || r.clock || r.chance; })()`,
        )
        // A frame that went away cannot be vouched for.
        .catch(() => true),
    ),
  );
  return reads.some(Boolean);
}
