import { randomUUID } from 'node:crypto';
import { unary } from '@mimamori/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DiffHarness, startDiffHarness } from './diff-harness.ts';

let harness: DiffHarness;

beforeAll(async () => {
  harness = await startDiffHarness({ embedded: true });
});

afterAll(async () => {
  await harness?.close();
});

const area = (text: string) => ({
  areaId: 'price',
  found: true,
  html: `<p>${text}</p>`,
  text,
  htmlBlobKey: '',
  textBlobKey: '',
  screenshotBlobKey: '',
});

// The single-process product runs every service on one embedded database, which runs one
// transaction at a time: judging a check must need nothing from another service while its
// transaction is open, or it waits on itself and is never recorded.
describe('judging snapshots on the embedded database', () => {
  it('records the first check of a new site and then an update, with the settings each check carries', async () => {
    const userId = `user-${randomUUID()}`;
    const targetId = await harness.registerSite(userId, [{ areaId: 'price' }]);
    const first = `${targetId}:${randomUUID()}`;
    await harness.publishSnapshot({ checkId: first, targetId, userId, areas: [area('¥1,200')] });
    expect((await harness.resultOf(first)).outcome).toBe('no_change');

    // The edit reaches the diff service in the next check's settings, not through a read.
    await harness.updateSite(userId, targetId, [{ areaId: 'price', options: { stripTags: true } }]);
    const second = `${targetId}:${randomUUID()}`;
    await harness.publishSnapshot({ checkId: second, targetId, userId, areas: [area('¥980')] });
    expect((await harness.resultOf(second)).outcome).toBe('update');

    // The site detail reads both back for their owner (an ownership test counts matching rows).
    const history = await unary(harness.history, 'listHistory', {
      userId,
      targetId,
      filter: 'all',
      cursor: '',
      direction: 'older',
      pageSize: 20,
      day: '',
      timeZone: 'Asia/Tokyo',
    });
    expect(history.entries.map((entry) => entry.outcome)).toEqual(['update', 'no_change']);
  });
});
