import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileBlobStore } from '@mimamori/blob-store';
import { checksEventsV1 } from '@mimamori/contracts';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { describe, expect, it } from 'vitest';
import { sealingContext } from './open-check-job.ts';
import { snapshotEvent } from './snapshot-event.ts';

const secrets = createSecretBox(generateSecretKey('k1'));
const job = checksEventsV1.RunCheck.fromPartial({
  checkId: 't1:2026-12-06T10:00:00.000Z',
  targetId: 't1',
  userId: 'u1',
  fetchMode: 'browser',
  dueAt: new Date('2026-12-06T10:00:00Z'),
});

describe('snapshotEvent', () => {
  it('seals what a full render keeps for revalidating with its own context, and sends nothing when none was kept', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'crawler-snapshot-'));
    try {
      const deps = { blobs: await createFileBlobStore(folder), secrets, now: new Date() };
      const base = { ok: true as const, finalUrl: 'https://shop.example/', status: 200, areas: [] };
      const kept = await snapshotEvent(job, { ...base, revalidation: '{"v":1}' }, deps);
      expect(kept.sealedRevalidationState).not.toContain('"v"');
      expect(secrets.open(kept.sealedRevalidationState, sealingContext.revalidation('t1'))).toBe('{"v":1}');
      expect(() => secrets.open(kept.sealedRevalidationState, sealingContext.session('t1'))).toThrow();
      const answered = await snapshotEvent(job, { ...base, rendered: false }, deps);
      expect(answered.sealedRevalidationState).toBe('');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('sends the areas digest only when it differs from the one the check carried', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'crawler-snapshot-'));
    try {
      const deps = { blobs: await createFileBlobStore(folder), secrets, now: new Date() };
      const read = {
        ok: true as const,
        finalUrl: 'https://shop.example/',
        status: 200,
        areas: [],
        areasDigest: 'ab12',
      };
      const carried = { ...job, previousAreasDigest: 'ab12' };
      expect((await snapshotEvent(carried, read, deps)).areasDigest).toBe('');
      expect((await snapshotEvent(carried, { ...read, areasDigest: 'cd34' }, deps)).areasDigest).toBe('cd34');
      // A check that carried none (the first, or the first after the settings changed) sends it.
      expect((await snapshotEvent(job, read, deps)).areasDigest).toBe('ab12');
      expect((await snapshotEvent(carried, { ...read, areasDigest: undefined }, deps)).areasDigest).toBe('');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
