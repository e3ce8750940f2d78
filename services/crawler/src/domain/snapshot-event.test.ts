import { checksEventsV1 } from '@mimamori/contracts';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { describe, expect, it } from 'vitest';
import { sealingContext } from './open-check-job.ts';
import { keptStateEvent } from './snapshot-event.ts';

const secrets = createSecretBox(generateSecretKey('k1'));
const job = checksEventsV1.RunCheck.fromPartial({
  checkId: 't1:2026-12-06T10:00:00.000Z',
  targetId: 't1',
  userId: 'u1',
  fetchMode: 'browser',
  dueAt: new Date('2026-12-06T10:00:00Z'),
});

describe('keptStateEvent', () => {
  const base = { ok: true as const, finalUrl: 'https://shop.example/', status: 200, areas: [] };

  it('seals what a full render keeps for revalidating with its own context, and sends nothing when none was kept', () => {
    const kept = keptStateEvent(job, { ...base, revalidation: '{"v":1}' }, secrets);
    expect(kept?.eventId).toBe(`state:${job.checkId}`);
    expect(kept?.sealedRevalidationState).not.toContain('"v"');
    expect(secrets.open(kept?.sealedRevalidationState ?? '', sealingContext.revalidation('t1'))).toBe(
      '{"v":1}',
    );
    expect(() => secrets.open(kept?.sealedRevalidationState ?? '', sealingContext.session('t1'))).toThrow();
    expect(keptStateEvent(job, { ...base, rendered: false }, secrets)).toBeUndefined();
  });

  it('sends the areas digest only when it differs from the one the check carried', () => {
    const read = { ...base, areasDigest: 'ab12' };
    const carried = { ...job, previousAreasDigest: 'ab12' };
    expect(keptStateEvent(carried, read, secrets)).toBeUndefined();
    expect(keptStateEvent(carried, { ...read, areasDigest: 'cd34' }, secrets)?.areasDigest).toBe('cd34');
    // A check that carried none (the first, or the first after the settings changed) sends it.
    expect(keptStateEvent(job, read, secrets)?.areasDigest).toBe('ab12');
    expect(keptStateEvent(carried, base, secrets)).toBeUndefined();
  });

  it('sends the session a check kept, and nothing of a failed check', () => {
    const kept = keptStateEvent(job, { ...base, sessionState: '{"sid":"1"}' }, secrets);
    expect(secrets.open(kept?.sealedSessionState ?? '', sealingContext.session('t1'))).toBe('{"sid":"1"}');
    const failed = { ok: false as const, code: 'timeout' as const, detail: 'slow', retryable: true };
    expect(keptStateEvent(job, failed, secrets)).toBeUndefined();
  });
});
