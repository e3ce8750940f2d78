import { targetUsageConsumer } from '@mimamori/account';
import type { BusMessage } from '@mimamori/bus';
import { targetUsageChanged } from '@mimamori/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetBody } from './target-bodies.ts';
import type { TargetBrowser } from './target-browser.ts';
import { startTargetHarness, type TargetHarness } from './target-harness.ts';

let harness: TargetHarness;

beforeAll(async () => {
  harness = await startTargetHarness();
});

afterAll(async () => {
  await harness?.close();
});

type UsedNum = Record<'_60min' | '_10min' | '_1min' | 'random_ip' | 'ss' | 'line_notify', number>;

async function usedNum(browser: TargetBrowser): Promise<UsedNum> {
  return (await browser.get('/api/user_info')).body.used_num as UsedNum;
}

async function eventually(read: () => Promise<UsedNum>, expected: Partial<UsedNum>): Promise<void> {
  const matches = (actual: UsedNum) =>
    Object.entries(expected).every(([key, value]) => actual[key as keyof UsedNum] === value);
  for (let i = 0; i < 600 && !matches(await read()); i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await read()).toMatchObject(expected);
}

function delivery(userId: string, revision: number, min10: number): BusMessage {
  return {
    subject: targetUsageChanged.subject,
    data: targetUsageChanged.encode({
      eventId: `usage-${revision}`,
      userId,
      revision,
      min60: 0,
      min10,
      min1: 0,
      randomIp: 0,
      ss: 0,
      lineNotify: 0,
      occurredAt: new Date(),
    }),
    msgId: `targets.usage_changed:${userId}:${revision}`,
    headers: {},
    deliveryCount: 1,
    ack() {},
    nak() {},
    term() {},
    working() {},
  };
}

describe("user_info's used_num follows the user's monitoring sites", () => {
  it('counts active sites per interval with spill-over, and features; pausing gives the slot back', async () => {
    const { browser } = await harness.signedIn('usage@example.com');
    // Basic 5: no hourly slots, so hourly sites use 10-minute slots (docs/product.md#quotas).
    const first = await browser.post('/api/v2/target/register', targetBody({ screenshot: true }));
    await browser.post('/api/v2/target/register', targetBody({ interval_minutes: 15 }));
    await eventually(() => usedNum(browser), { _60min: 0, _10min: 2, _1min: 0, ss: 1 });

    await browser.post('/api/v2/pause', { target_v2_id: first.body.target_v2_id });
    await eventually(() => usedNum(browser), { _10min: 1, ss: 0 });
  });

  it('keeps the newest report when reports arrive twice or out of order', async () => {
    const { browser, userId } = await harness.signedIn('reports@example.com');
    const { handler } = targetUsageConsumer(harness.db);
    await handler(delivery(userId, 5, 3));
    await handler(delivery(userId, 5, 3));
    expect(await usedNum(browser)).toMatchObject({ _10min: 3 });
    await handler(delivery(userId, 4, 1));
    expect(await usedNum(browser)).toMatchObject({ _10min: 3 });
    await handler(delivery(userId, 6, 2));
    expect(await usedNum(browser)).toMatchObject({ _10min: 2 });
  });
});
