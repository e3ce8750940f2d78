import { unary } from '@mimamori/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetBody } from './target-bodies.ts';
import { startTargetHarness, type TargetHarness } from './target-harness.ts';

let harness: TargetHarness;

beforeAll(async () => {
  harness = await startTargetHarness();
});

afterAll(async () => {
  await harness?.close();
});

describe('ListTargetStates (the scheduler rebuilding its schedule)', () => {
  it("pages through every user's sites in id order with the state the events carry", async () => {
    const ann = await harness.signedIn('ann@example.com');
    const ben = await harness.signedIn('ben@example.com');
    await ann.browser.post('/api/v2/target/register', targetBody({ interval_minutes: 10 }));
    await ann.browser.post('/api/v2/target/register', targetBody({ paused: true }));
    await ben.browser.post('/api/v1/import', { text: 'https://ben.example/\nhttps://ben.example/2' });

    const seen: { targetId: string; userId: string; paused: boolean; intervalMinutes: number }[] = [];
    let afterId = '';
    let pages = 0;
    do {
      const page = await unary(harness.target, 'listTargetStates', { afterId, limit: 3 });
      seen.push(...page.states);
      afterId = page.nextAfterId;
      pages++;
    } while (afterId !== '' && pages < 10);

    expect(pages).toBe(2);
    expect(seen.map((state) => state.targetId)).toEqual(seen.map((state) => state.targetId).toSorted());
    expect(
      seen
        .filter((state) => state.userId === ann.userId)
        .map((s) => [s.intervalMinutes, s.paused])
        .toSorted(),
    ).toEqual([
      [10, false],
      [60, true],
    ]);
    const bens = seen.filter((state) => state.userId === ben.userId);
    expect(bens).toHaveLength(2);
    expect(bens[0]).toMatchObject({ version: 1, check: { areas: [{ areaId: 'page' }], fetchMode: 'http' } });
  });
});
