/** A script chunk of the SPA could not be loaded (network failure, or a deploy removed it). */
export class ChunkLoadError extends Error {
  constructor(options: { cause?: unknown } = {}) {
    super('a script chunk could not be loaded', options);
    this.name = 'ChunkLoadError';
  }
}

/** docs/product.md#screens: a chunk that has not arrived after 120 seconds counts as failed. */
const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/**
 * Runs a dynamic import and turns any failure or a stall into a ChunkLoadError, so error
 * boundaries can tell "reload to get the current version" apart from a bug in a screen.
 */
export function loadChunk<T>(importChunk: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError()), CHUNK_LOAD_TIMEOUT_MS);
    importChunk().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (cause: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError({ cause }));
      },
    );
  });
}
