import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountHarness, startAccountHarness } from '../accounts/account-harness.ts';

// The account service without Stripe keys: billing is off, the catalogue is still shown.
let harness: AccountHarness;

beforeAll(async () => {
  harness = await startAccountHarness();
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

describe('billing without Stripe keys', () => {
  it('shows the plan prices, answers 503 billing_off to a signed-in caller, 401 to a signed-out one', async () => {
    const browser = await harness.browser();
    const plans = await browser.get('/api/plans');
    expect(plans.status).toBe(200);
    expect((plans.body.plans as { plan: number; prices: unknown }[]).find((p) => p.plan === 3)).toMatchObject(
      {
        prices: { month: { JPY: 980, USD: 700 } },
      },
    );
    expect((await browser.get('/api/billing')).status).toBe(401);

    const { userId } = await new Promise<{ userId: string }>((resolve, reject) =>
      harness.account.createAccount({ email: 'off@example.jp', password: 'abcd1234', lang: 'ja' }, (e, r) =>
        e ? reject(e) : resolve(r),
      ),
    );
    await harness.db.query('UPDATE account.users SET email_verified_at = now() WHERE id = $1', [userId]);
    expect(
      (await browser.post('/api/signin', { email: 'off@example.jp', password: 'abcd1234' })).status,
    ).toBe(200);
    for (const [method, path] of [
      ['GET', '/api/billing'],
      ['POST', '/api/billing/setup_intent'],
      ['POST', '/api/billing/card'],
      ['POST', '/api/billing/plan'],
      ['POST', '/api/billing/plan/preview'],
      ['POST', '/api/billing/cancel'],
      ['POST', '/api/billing/reprocess'],
    ] as const) {
      const response = await browser.request(method, path, method === 'POST' ? {} : undefined);
      expect(response, `${method} ${path}`).toMatchObject({
        status: 503,
        body: { error: { code: 'billing_off' } },
      });
    }
    const webhook = await harness.gateway.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      payload: '{}',
    });
    expect(webhook.statusCode).toBe(503);
    expect(webhook.json()).toMatchObject({ error: { code: 'billing_off' } });
  });
});
