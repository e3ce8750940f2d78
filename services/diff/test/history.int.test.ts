import { randomUUID } from 'node:crypto';
import { status } from '@grpc/grpc-js';
import type { diffV1 } from '@mimamori/contracts';
import { unary } from '@mimamori/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DiffHarness, startDiffHarness } from './diff-harness.ts';

let harness: DiffHarness;
const userId = `user-${randomUUID()}`;
let targetId: string;
/** Check ids in the order they completed, with what each was. */
const checks: { checkId: string; outcome: string }[] = [];

// 23:00 JST on 20 November, then one check every 20 minutes: the first three fall on the 20th in
// Tokyo, the rest on the 21st; in UTC all of them are on the 20th.
const START = Date.parse('2026-11-20T14:00:00Z');
const STEP = 20 * 60_000;
const TEXTS = ['v1', 'v2', null, 'v2', 'v3', null, 'v4', 'v4'];

beforeAll(async () => {
  harness = await startDiffHarness();
  targetId = await harness.registerSite(userId, [{ areaId: 'news' }]);
  for (const [index, text] of TEXTS.entries()) {
    harness.clock.set(new Date(START + index * STEP));
    const checkId = `${targetId}:${index}`;
    await harness.publishSnapshot({
      checkId,
      targetId,
      userId,
      ...(text === null
        ? {
            areas: [],
            error: { code: 'unreachable', detail: 'connection refused', retryable: true, areaId: '' },
          }
        : {
            areas: [
              {
                areaId: 'news',
                found: true,
                html: '',
                text: `Headline ${text}`,
                htmlBlobKey: '',
                textBlobKey: '',
                screenshotBlobKey: '',
              },
            ],
          }),
    });
    const result = await harness.resultOf(checkId);
    checks.push({ checkId, outcome: result.outcome });
  }
});

afterAll(async () => {
  await harness?.close();
});

const list = (request: Partial<diffV1.ListHistoryRequest>) =>
  unary(harness.history, 'listHistory', {
    userId,
    targetId,
    filter: '',
    cursor: '',
    direction: '',
    pageSize: 0,
    day: '',
    timeZone: '',
    ...request,
  });

const newestFirst = () => [...checks].reverse();

describe('site-detail history', () => {
  it('holds every check newest first, updates with their diff', async () => {
    expect(checks.map((entry) => entry.outcome)).toEqual([
      'no_change',
      'update',
      'error',
      'no_change',
      'update',
      'error',
      'update',
      'no_change',
    ]);
    const page = await list({});
    expect(page.entries.map((entry) => entry.checkId)).toEqual(newestFirst().map((entry) => entry.checkId));
    expect(page.olderCursor).toBe('');
    expect(page.newerCursor).toBe('');
    const update = page.entries.find((entry) => entry.checkId === `${targetId}:4`)?.update;
    expect(update?.areas[0]?.diffText).toBe('- Headline v2\n+ Headline v3');
    const rows = JSON.parse(update?.areas[0]?.rowsJson ?? '[]') as { kind: string; changed: boolean }[];
    expect(rows).toEqual([expect.objectContaining({ kind: 'modified', changed: true })]);
  });

  it('filters updates and errors', async () => {
    const updates = await list({ filter: 'update' });
    expect(updates.entries.map((entry) => entry.checkId)).toEqual(
      newestFirst()
        .filter((entry) => entry.outcome === 'update')
        .map((entry) => entry.checkId),
    );
    const errors = await list({ filter: 'error' });
    expect(errors.entries.map((entry) => [entry.outcome, entry.errorCode])).toEqual([
      ['error', 'unreachable'],
      ['error', 'unreachable'],
    ]);
  });

  it('pages older and newer with cursors', async () => {
    const all = newestFirst().map((entry) => entry.checkId);
    const first = await list({ pageSize: 3 });
    expect(first.entries.map((entry) => entry.checkId)).toEqual(all.slice(0, 3));
    expect(first.newerCursor).toBe('');
    const second = await list({ pageSize: 3, cursor: first.olderCursor, direction: 'older' });
    expect(second.entries.map((entry) => entry.checkId)).toEqual(all.slice(3, 6));
    const third = await list({ pageSize: 3, cursor: second.olderCursor, direction: 'older' });
    expect(third.entries.map((entry) => entry.checkId)).toEqual(all.slice(6));
    expect(third.olderCursor).toBe('');
    const back = await list({ pageSize: 3, cursor: third.newerCursor, direction: 'newer' });
    expect(back.entries.map((entry) => entry.checkId)).toEqual(all.slice(3, 6));
    expect(back.newerCursor).not.toBe('');
    expect(back.olderCursor).not.toBe('');
  });

  it("shows one day in the user's time zone", async () => {
    const tokyo20 = await list({ day: '2026-11-20', timeZone: 'Asia/Tokyo' });
    expect(tokyo20.entries.map((entry) => entry.checkId)).toEqual(
      [0, 1, 2].reverse().map((index) => `${targetId}:${index}`),
    );
    const tokyo21 = await list({ day: '2026-11-21', timeZone: 'Asia/Tokyo' });
    expect(tokyo21.entries).toHaveLength(5);
    const utc20 = await list({ day: '2026-11-20', timeZone: 'UTC' });
    expect(utc20.entries).toHaveLength(8);
  });

  it('gives the data at registration', async () => {
    const registered = await unary(harness.history, 'getRegistrationData', { userId, targetId });
    expect(registered.areas.map((area) => [area.areaId, area.text])).toEqual([['news', 'Headline v1']]);
    expect(registered.areas[0]?.recordedAt?.toISOString()).toBe(new Date(START).toISOString());
  });

  it("answers NOT_FOUND for another user's site and refuses bad arguments", async () => {
    const stranger = `user-${randomUUID()}`;
    await expect(list({ userId: stranger })).rejects.toMatchObject({ code: status.NOT_FOUND });
    await expect(
      unary(harness.history, 'getRegistrationData', { userId: stranger, targetId }),
    ).rejects.toMatchObject({ code: status.NOT_FOUND });
    await expect(list({ filter: 'nope' })).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    await expect(list({ day: '2026-02-30' })).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    await expect(list({ day: '2026-11-20', timeZone: 'Mars/Base' })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
  });
});
