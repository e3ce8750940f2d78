import { randomUUID } from 'node:crypto';
import type { LeasedPage } from '../browser/browser-pool.ts';

export type PreviewErrorKind = 'not_found' | 'exhausted' | 'invalid';

/** A refused preview call; its message is a stable snake_case code the gateway passes on. */
export class PreviewError extends Error {
  override readonly name = 'PreviewError';
  constructor(
    readonly kind: PreviewErrorKind,
    message: string,
  ) {
    super(message);
  }
}

export interface PreviewLease extends LeasedPage {
  close(): Promise<void>;
}

export interface PreviewSession<Settings> {
  id: string;
  userId: string;
  lease: PreviewLease;
  settings: Settings;
}

export interface SessionLimits {
  /** Sessions one user may hold at once. */
  perUser: number;
  /** Sessions the whole process holds at once (each is a browser context). */
  total: number;
  /** A session unused this long is closed. */
  idleMs: number;
}

interface Entry<Settings> {
  session: PreviewSession<Settings>;
  lastUsed: number;
  /** Operations on one page run one after another. */
  tail: Promise<unknown>;
  busy: number;
}

/**
 * The live preview sessions of this process, each scoped to the user who opened it: another
 * user's id is answered exactly like an unknown one. Idle sessions are closed by a sweep.
 * `home` is the address other processes reach this crawler at: each session id ends in
 * `@<home>` so the gateway sends every follow-up call to the crawler that holds the page
 * (ADR 0011); without it ids are bare and the gateway's one crawler address serves them.
 */
export function createPreviewSessions<Settings>(
  limits: SessionLimits,
  now: () => number = Date.now,
  home?: string,
) {
  const entries = new Map<string, Entry<Settings>>();
  const opening = new Map<string, number>();
  const sweeper = setInterval(() => void sweep(), Math.min(30_000, Math.max(50, limits.idleMs / 4)));
  sweeper.unref();

  function countFor(userId: string): number {
    let count = opening.get(userId) ?? 0;
    for (const entry of entries.values()) if (entry.session.userId === userId) count++;
    return count;
  }

  function totalCount(): number {
    let count = entries.size;
    for (const pending of opening.values()) count += pending;
    return count;
  }

  async function expire(id: string, entry: Entry<Settings>) {
    entries.delete(id);
    await entry.session.lease.close();
  }

  async function sweep() {
    const cutoff = now() - limits.idleMs;
    await Promise.all(
      [...entries]
        .filter(([, entry]) => entry.busy === 0 && entry.lastUsed < cutoff)
        .map(([id, entry]) => expire(id, entry)),
    );
  }

  function live(userId: string, id: string): Entry<Settings> {
    const entry = entries.get(id);
    if (!entry || entry.session.userId !== userId) throw new PreviewError('not_found', 'preview_not_found');
    if (entry.busy === 0 && entry.lastUsed < now() - limits.idleMs) {
      void expire(id, entry);
      throw new PreviewError('not_found', 'preview_not_found');
    }
    return entry;
  }

  return {
    /**
     * Opens a session for `userId` with the page `start` produces; refused with 'exhausted'
     * when the user (or the process) holds too many. `start` owns the lease until it returns.
     */
    async open(userId: string, start: () => Promise<{ lease: PreviewLease; settings: Settings }>) {
      if (countFor(userId) >= limits.perUser) {
        throw new PreviewError('exhausted', 'too_many_previews');
      }
      if (totalCount() >= limits.total) throw new PreviewError('exhausted', 'preview_busy');
      opening.set(userId, (opening.get(userId) ?? 0) + 1);
      try {
        const { lease, settings } = await start();
        const id = home ? `${randomUUID()}@${home}` : randomUUID();
        const session: PreviewSession<Settings> = { id, userId, lease, settings };
        entries.set(session.id, { session, lastUsed: now(), tail: Promise.resolve(), busy: 0 });
        return session;
      } finally {
        const left = (opening.get(userId) ?? 1) - 1;
        if (left > 0) opening.set(userId, left);
        else opening.delete(userId);
      }
    },

    /** Runs `work` on the user's session after the operations queued before it. */
    use<T>(userId: string, id: string, work: (session: PreviewSession<Settings>) => Promise<T>): Promise<T> {
      const entry = live(userId, id);
      entry.busy++;
      entry.lastUsed = now();
      const result = entry.tail.then(() => work(entry.session));
      entry.tail = result.catch(() => undefined);
      return result.finally(() => {
        entry.busy--;
        entry.lastUsed = now();
      });
    },

    async close(userId: string, id: string) {
      const entry = live(userId, id);
      await entry.tail;
      await expire(id, entry);
    },

    sweep,

    async closeAll() {
      clearInterval(sweeper);
      await Promise.all([...entries].map(([id, entry]) => expire(id, entry)));
    },
  };
}

export type PreviewSessions<Settings> = ReturnType<typeof createPreviewSessions<Settings>>;
