import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { StripeStandIn } from '@mimamori/stripe-stand-in';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified } from './rig/account-steps.ts';
import { useSystemRig } from './rig/system-rig.ts';

// Billing in the cluster mode: the account and gateway processes on the `stripe` SDK against the
// local Stripe stand-in (an outside API, so a local server stands in), its signed webhooks arriving
// through the gateway process's raw-body route.
const DAY = 86_400;
const SECRET = `whsec_${randomBytes(12).toString('hex')}`;
const KEY = 'sk_test_cluster_billing';
const PLAN_PRICES = JSON.stringify({
  3: { month: { JPY: 980, USD: 700 }, year: { JPY: 9800, USD: 7000 } },
  4: { month: { JPY: 1980, USD: 1400 }, year: { JPY: 19800, USD: 14000 } },
});

let standIn: StripeStandIn;
let apiBase: string;
beforeAll(async () => {
  standIn = new StripeStandIn({ webhookSecret: SECRET });
  apiBase = `http://127.0.0.1:${(await standIn.listen()).port}`;
  // The price script, as an operator runs it against a Stripe account.
  const script = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'scripts/stripe-prices.ts'],
    {
      env: { ...process.env, STRIPE_SECRET_KEY: KEY, STRIPE_API_BASE: apiBase, PLAN_PRICES },
    },
  );
  expect(script.stdout).toContain(
    'created 8 price(s): plan3_month_jpy, plan3_month_usd, plan3_year_jpy, plan3_year_usd, ' +
      'plan4_month_jpy, plan4_month_usd, plan4_year_jpy, plan4_year_usd',
  );
  return () => standIn.close();
}, 60_000);
const rig = useSystemRig('billing', () => ({
  env: { STRIPE_SECRET_KEY: KEY, STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_BASE: apiBase, PLAN_PRICES },
}));
beforeAll(() => {
  standIn.setWebhookUrl(new URL('/api/stripe/webhook', rig().cluster.url).toString());
});

/** A moment as the mails write it in Japanese for a reader in UTC (docs/product.md#dates-in-mails). */
function japaneseUtc(at: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return `${at.getUTCFullYear()}年${at.getUTCMonth() + 1}月${at.getUTCDate()}日 ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}（UTC）`;
}

describe('billing in the cluster mode', () => {
  it('signup → trial at Stripe → trial ends without a card (webhook) → 7 → test card → 2 → booking, cancel and undo, each mailed once in Japanese', async () => {
    const visitor = await signUpVerified(rig(), {
      email: 'billing@example.jp',
      lang: 'ja',
      // A Japanese reader outside Japan: billing mails write their dates in this zone.
      timezone: 'UTC',
    });
    const plans = await visitor.get('/api/plans');
    expect(plans.body).toMatchObject({
      plans: expect.arrayContaining([expect.objectContaining({ plan: 3 })]),
    });
    // Signup's billing side runs off accounts.created in the account process.
    await expect.poll(async () => (await visitor.get('/api/billing')).status, { timeout: 30_000 }).toBe(200);
    expect((await visitor.get('/api/billing')).body).toMatchObject({
      status: 1,
      currency: 'JPY',
      has_pi: false,
    });

    standIn.advanceTo(standIn.now + 15 * DAY);
    await standIn.delivered();
    expect((await visitor.get('/api/billing')).body).toMatchObject({ status: 7, has_pi: false });
    expect((await visitor.get('/api/user_info')).body).toMatchObject({
      subscription: { status: 7 },
      has_pi: false,
    });

    const intent = await visitor.post('/api/billing/setup_intent', {});
    const carded = await visitor.post('/api/billing/card', {
      setup_intent_id: (intent.body as { setup_intent_id: string }).setup_intent_id,
      test_card: 'pm_card_visa',
    });
    expect(carded).toMatchObject({ status: 200, body: { status: 2, has_pi: true, card: { last4: '4242' } } });
    await standIn.delivered();
    expect((await visitor.get('/api/user_info')).body).toMatchObject({
      subscription: { status: 2 },
      has_pi: true,
    });
    // The stand-in's webhooks went through the gateway process and were all accepted.
    await expect
      .poll(() => rig().smtp.messages.map((mail) => mail.subject), { timeout: 30_000 })
      .toContain('【Mimamori】無料トライアルが終了し、監視を停止しました');
    const ended = rig().smtp.messages.find((mail) => mail.subject?.includes('無料トライアルが終了'));
    // The delete date, in the user's zone rather than the language's (日本時間).
    expect(ended?.text).toMatch(/\d{4}年\d{1,2}月\d{1,2}日 \d{1,2}:\d{2}（UTC）/);
    expect(ended?.text).not.toContain('日本時間');

    // The card lifted the hold: told once, with the sites still paused and a link to the dashboard.
    const subjects = () => rig().smtp.messages.map((mail) => mail.subject);
    await expect.poll(subjects, { timeout: 30_000 }).toContain('【Mimamori】アカウントの保留を解除しました');
    const lifted = rig().smtp.messages.find(
      (mail) => mail.subject === '【Mimamori】アカウントの保留を解除しました',
    );
    expect(lifted?.text).toContain('ダッシュボードから監視を再開してください');
    expect(lifted?.html).toMatch(/href="http:\/\/[^"]+\/"/);

    // A change booked for the next renewal names the plan in Japanese and the date it takes effect.
    const booked = await visitor.post('/api/billing/plan', { plan: 4, cycle: 'month', timing: 'renewal' });
    expect(booked).toMatchObject({ status: 200, body: { plan: { plan: 3 }, booked: { plan: 4 } } });
    const periodEnd = (booked.body as { period_end: string }).period_end;
    await expect.poll(subjects, { timeout: 30_000 }).toContain('【Mimamori】プランの変更を予約しました');
    const bookedMail = rig().smtp.messages.find(
      (mail) => mail.subject === '【Mimamori】プランの変更を予約しました',
    );
    expect(bookedMail?.text).toContain(
      `${japaneseUtc(new Date(periodEnd))}の更新から、プランは「ベーシック5 (1分間隔)」に変わります。`,
    );

    // A cancellation and its undo: each told once, though Stripe's webhooks for them came too.
    expect((await visitor.post('/api/billing/cancel', { reasons: ['too_expensive'] })).status).toBe(200);
    expect((await visitor.post('/api/billing/cancel/undo', {})).status).toBe(200);
    await standIn.delivered();
    await expect.poll(subjects, { timeout: 30_000 }).toContain('【Mimamori】解約を取り消しました');
    const undone = rig().smtp.messages.find((mail) => mail.subject === '【Mimamori】解約を取り消しました');
    expect(undone?.text).toContain(
      `「ベーシック5」は${japaneseUtc(new Date(periodEnd))}にこれまでどおり更新されます。`,
    );
    // Let a late copy arrive, if one were sent.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // Each once, in whatever order the notifier's consumer got to them.
    const billingSubjects = subjects().filter((subject) => subject !== '【Mimamori】メールアドレスの確認');
    expect(billingSubjects.sort()).toEqual(
      [
        '【Mimamori】無料トライアルが終了し、監視を停止しました',
        '【Mimamori】アカウントの保留を解除しました',
        '【Mimamori】プランの変更を予約しました',
        '【Mimamori】解約を受け付けました',
        '【Mimamori】解約を取り消しました',
      ].sort(),
    );
  }, 120_000);

  it('card in the trial → 2 → cancel → the period ends (9, no plan) → subscribe again on another plan: 2, paid at once, mailed once', async () => {
    const visitor = await signUpVerified(rig(), { email: 'again@example.jp', lang: 'ja', timezone: 'UTC' });
    await expect.poll(async () => (await visitor.get('/api/billing')).status, { timeout: 30_000 }).toBe(200);
    const intent = await visitor.post('/api/billing/setup_intent', {});
    await visitor.post('/api/billing/card', {
      setup_intent_id: (intent.body as { setup_intent_id: string }).setup_intent_id,
      test_card: 'pm_card_visa',
    });
    standIn.advanceTo(standIn.now + 15 * DAY);
    await standIn.delivered();
    expect((await visitor.get('/api/billing')).body).toMatchObject({ status: 2, has_pi: true });

    expect((await visitor.post('/api/billing/cancel', { reasons: ['no_longer_needed'] })).status).toBe(200);
    const cancelling = (await visitor.get('/api/billing')).body as { period_end: string };
    standIn.advanceTo(Math.ceil(new Date(cancelling.period_end).getTime() / 1000) + DAY);
    await standIn.delivered();
    expect((await visitor.get('/api/billing')).body).toMatchObject({ status: 9 });
    // After the end the account has no plan's slots (the next plan is none) until it subscribes again.
    expect((await visitor.get('/api/user_info')).body).toMatchObject({
      subscription: { status: 9 },
      num: { _60min: 0, _10min: 0, _1min: 0 },
    });

    const again = await visitor.post('/api/billing/plan', { plan: 4, cycle: 'month', timing: 'now' });
    expect(again).toMatchObject({
      status: 200,
      body: { status: 2, plan: { plan: 4, cycle: 'month' }, cancel_at_period_end: false },
    });
    await standIn.delivered();
    expect((await visitor.get('/api/user_info')).body).toMatchObject({
      subscription: { status: 2, s_info: { Plan: 4 } },
      num: { _1min: 5 },
    });

    const mine = () =>
      rig().smtp.messages.filter((mail) => JSON.stringify(mail.to).includes('again@example.jp'));
    await expect
      .poll(() => mine().map((mail) => mail.subject), { timeout: 30_000 })
      .toContain('【Mimamori】ご契約を再開しました');
    const welcome = mine().find((mail) => mail.subject === '【Mimamori】ご契約を再開しました');
    expect(welcome?.text).toContain(
      '「ベーシック5 (1分間隔)」（月額¥1,980（税込、うち消費税¥180））のご契約を再開し',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(mine().filter((mail) => mail.subject === '【Mimamori】ご契約を再開しました')).toHaveLength(1);
    // Not told as a lifted hold or a plan change.
    expect(mine().map((mail) => mail.subject)).not.toContain('【Mimamori】アカウントの保留を解除しました');
  }, 120_000);
});
