import type { BusMessage } from '@mimamori/bus';
import { accountCancelled, trialEnded } from '@mimamori/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountHarness, startAccountHarness, tokenIn } from './account-harness.ts';
import type { TestBrowser } from './test-browser.ts';

const DAY = 86_400_000;
let harness: AccountHarness;
const events: BusMessage[] = [];

beforeAll(async () => {
  harness = await startAccountHarness({ sweepIntervalMs: 50, trialGraceMs: 30 * DAY });
  await harness.bus.consume(
    { stream: trialEnded.stream, durable: 'trial-test', ackWaitMs: 5_000, maxDeliver: 3 },
    async (message) => {
      events.push(message);
    },
  );
});

afterAll(async () => {
  await harness?.close();
});

async function signedIn(email: string): Promise<TestBrowser> {
  const browser = await harness.browser();
  await browser.post('/api/signup', { email, password: 'abcd1234', agree: true, lang: 'en' });
  await browser.post('/api/verify', { token: tokenIn(await harness.mailTo(email, /confirm your e-mail/)) });
  await browser.post('/api/signin', { email, password: 'abcd1234' });
  return browser;
}

/**
 * Polls until `probe` answers. 30 s: the account sweep runs on its own timer, and in a CI run
 * beside two browser-heavy files the cancellation came later than 10 s.
 */
async function eventually<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('trial lifecycle with a moved clock', () => {
  it('holds the account when the trial ends, publishes TrialEnded, then cancels it at the delete date', async () => {
    const browser = await signedIn('trial@example.com');
    const paying = await signedIn('card@example.com');
    const userId = String((await browser.get('/api/account')).body.user_id);
    const payingId = String((await paying.get('/api/account')).body.user_id);
    // The billing issue records cards; here the row says one is registered.
    await harness.db.query('UPDATE account.subscriptions SET has_card = true WHERE user_id = $1', [payingId]);
    expect((await browser.get('/api/user_info')).body).toMatchObject({
      subscription: { status: 1 },
      has_pi: false,
    });

    await paying.post('/api/signin', { email: 'card@example.com', password: 'wrong-pass' });
    const failures = async () =>
      Number(
        (await harness.db.query<{ n: string }>('SELECT count(*) AS n FROM account.sign_in_failures')).rows[0]
          ?.n,
      );
    expect(await failures()).toBe(1);

    harness.clock.advance(13 * DAY);
    // The same sweep prunes failed sign-ins older than the throttling window.
    await eventually(async () => ((await failures()) === 0 ? true : undefined), 'failed sign-ins pruned');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await browser.get('/api/user_info')).body).toMatchObject({ subscription: { status: 1 } });

    harness.clock.advance(DAY + 1_000);
    const held = await eventually(async () => {
      const info = (await browser.get('/api/user_info')).body as {
        subscription: { status: number; suspend_at: string };
      };
      return info.subscription.status === 7 ? info : undefined;
    }, 'the hold');
    const ended = await eventually(
      async () =>
        events.find(
          (m) => m.subject.endsWith(trialEnded.subject) && trialEnded.decode(m.data).userId === userId,
        ),
      'TrialEnded',
    );
    const payload = trialEnded.decode(ended.data);
    expect(ended.msgId).toBe(`trial-ended:${userId}`);
    expect(payload.deleteAt?.getTime()).toBe((payload.endedAt?.getTime() ?? 0) + 30 * DAY);
    expect(new Date(held.subscription.suspend_at).getTime()).toBe(payload.deleteAt?.getTime());
    expect((await paying.get('/api/user_info')).body).toMatchObject({ subscription: { status: 1 } });
    expect(
      events.filter(
        (m) => m.subject.endsWith(trialEnded.subject) && trialEnded.decode(m.data).userId === payingId,
      ),
    ).toHaveLength(0);

    // On hold the user can still sign in (to register a card); sessions last 30 days.
    harness.clock.advance(29 * DAY);
    expect(
      (await browser.post('/api/signin', { email: 'trial@example.com', password: 'abcd1234' })).status,
    ).toBe(200);
    expect((await browser.get('/api/user_info')).body).toMatchObject({ subscription: { status: 7 } });
    harness.clock.advance(DAY);
    const gone = await eventually(async () => {
      const info = await browser.get('/api/user_info');
      return info.body.deleted_user === true ? info : undefined;
    }, 'the cancellation');
    expect(gone.status).toBe(200);
    const cancelled = await eventually(
      async () =>
        events.find(
          (m) =>
            m.subject.endsWith(accountCancelled.subject) && accountCancelled.decode(m.data).userId === userId,
        ),
      'AccountCancelled',
    );
    expect(accountCancelled.decode(cancelled.data)).toMatchObject({ userId, reason: 'trial_expired' });
    expect((await browser.get('/api/account')).status).toBe(401);
    const again = await harness.browser();
    expect(
      (await again.post('/api/signin', { email: 'trial@example.com', password: 'abcd1234' })).status,
    ).toBe(401);
    expect((await paying.get('/api/user_info')).body).not.toHaveProperty('deleted_user');
  });
});
