import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  apiOf,
  expectNoSeriousAxeViolations,
  expectNoSidewaysOverflow,
  NARROW,
  openPage,
  productAndBrowser,
  SIGN_UP_LABELS,
  screenshot,
  signedUpAndIn,
  signIn,
  WIDE,
} from './steps.ts';

// Lawful to sell in Japan (docs/legal.md), through the screens of the one-process product on its
// Stripe stand-in, with no operator configured (so the seller reads as a marked sample): the legal
// pages from the footer, each payment screen's links to them, the final confirmation of the card
// that ends the trial with every item the 2022 rule asks (in Japanese and English, 1280 and 375
// px), then a cancellation that runs out and the plan ordered again, confirmed the same way. The
// stand-in's one clock moves only forward, so the tests run in order.

const PRICES = {
  3: { month: { JPY: 980, USD: 700 }, year: { JPY: 9800, USD: 7000 } },
  5: { month: { JPY: 2980, USD: 2000 }, year: { JPY: 29800, USD: 20000 } },
};
const running = productAndBrowser(() => ({
  env: { PLAN_PRICES: JSON.stringify(PRICES), TRIAL_SWEEP_INTERVAL_MS: '1000' },
}));
const DAY = 86_400;
const pageUrl = (path: string) => new URL(path, running.product.url).href;
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

type Lang = 'ja' | 'en';
const WORDS = {
  ja: {
    legal: '法的事項',
    commerce: '特定商取引法に基づく表記',
    privacy: 'プライバシーポリシー',
    terms: '利用規約',
    sample: '（設定されていません：見本）',
    price3: ['¥980（税込・うち消費税¥89）', '$7.00（日本の消費税の対象外）'],
    abroad: ['Stripe, Inc.（アメリカ合衆国）', 'アメリカ合衆国には連邦レベルの包括的な個人情報保護法はなく'],
    termsTrial: 'トライアル中にカードを登録すると、トライアルの終了日に選んだプランの有料契約に移り',
    order: {
      plan: ['ベーシック5 (月払い)', '30日ごとに自動で更新され、契約期間の定めはありません'],
      price: ['¥980 / 月（税込・うち消費税¥89）'],
      now: ['ありません'],
      schedule: ['に¥980 / 月（税込・うち消費税¥89）をお支払いいただき、以後30日ごとに'],
      trial: ['無料トライアルは', 'その日から有料（¥980 / 月（税込・うち消費税¥89））に切り替わります'],
      renewal: ['解約するまで自動で更新されます', 'アカウント画面の「解約」'],
      cancel: ['いつでも解約できます', '解約手数料はかかりません'],
      delivery: ['ご注文の確定後すぐに'],
      payment: ['クレジットカード', 'Stripe, Inc.'],
    },
    submit: '注文を確定する（有料）',
  },
  en: {
    legal: 'Legal',
    commerce: 'Specified Commercial Transactions Act notice',
    privacy: 'Privacy policy',
    terms: 'Terms of service',
    sample: '(not configured: sample)',
    price3: ['¥980 (tax incl.: ¥89 consumption tax)', '$7.00 (no Japanese consumption tax)'],
    abroad: [
      'Stripe, Inc. (United States of America)',
      'the United States has no comprehensive federal privacy law',
    ],
    termsTrial:
      "If you register a card during the trial, the chosen plan's paid subscription starts when the trial ends",
    order: {
      plan: ['Basic 5 (monthly)', 'renews automatically every 30 days and has no fixed end'],
      price: ['¥980 / month (tax incl.: ¥89 consumption tax)'],
      now: ['Nothing'],
      schedule: ['then the same every 30 days, charged automatically'],
      trial: [
        'Your free trial ends on',
        'turns into the paid plan (¥980 / month (tax incl.: ¥89 consumption tax)) that day',
      ],
      renewal: ['renews automatically until you cancel', 'Cancel on the account page'],
      cancel: ['cancel at any time', 'no cancellation fee'],
      delivery: ['Right after you confirm the order'],
      payment: ['Credit card', 'Stripe, Inc.'],
    },
    submit: 'Place order (paid)',
  },
} as const;

/** Each screen is read with axe, may not scroll sideways, and is kept at both widths. */
async function shootBoth(page: Page, name: string) {
  await expectNoSeriousAxeViolations(page);
  await page.setViewportSize(WIDE);
  await screenshot(page, `${name}-1280`);
  await page.setViewportSize(NARROW);
  await poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expectNoSidewaysOverflow(page);
  await expectNoSeriousAxeViolations(page);
  await screenshot(page, `${name}-375`);
  await page.setViewportSize(WIDE);
}

/** The footer's screen-only language switch. */
async function readIn(page: Page, lang: Lang) {
  await page.locator(`footer button[lang="${lang}"]`).click();
  await poll(() => page.locator('html').getAttribute('lang')).toBe(lang);
}

/** A payment screen links the three legal pages beside what it asks, not only in the footer. */
async function expectLegalLinksInMain(page: Page, lang: Lang) {
  const words = WORDS[lang];
  const main = page.locator('main');
  for (const [name, href] of [
    [words.commerce, '/legal/commerce'],
    [words.privacy, '/legal/privacy'],
    [words.terms, '/legal/terms'],
  ] as const) {
    await poll(() => main.getByRole('link', { name, exact: true }).first().getAttribute('href')).toBe(href);
  }
}

async function advanceDays(days: number) {
  const match = /Stripe stand-in \(billing without Stripe\): (http:\/\/127\.0\.0\.1:\d+)/.exec(
    running.product.output(),
  );
  if (!match?.[1]) throw new Error(`no Stripe stand-in:\n${running.product.output()}`);
  const call = async (path: string, form: Record<string, string> = {}) => {
    const response = await fetch(new URL(path, match[1]), {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_e2e', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { id: string; frozen_time: number };
  };
  const clock = await call('/v1/test_helpers/test_clocks');
  await call(`/v1/test_helpers/test_clocks/${clock.id}/advance`, {
    frozen_time: String(clock.frozen_time + days * DAY),
  });
}

async function billingStatus(page: Page): Promise<number> {
  const { body } = await apiOf(page.context(), running.product.url).get('/api/billing');
  return (body as { status: number }).status;
}

describe('lawful to sell in Japan', () => {
  it('the legal pages: from the footer, the seller as a marked sample, prices with their tax, in ja and en', async () => {
    for (const lang of ['ja', 'en'] as const) {
      const words = WORDS[lang];
      const page = await openPage(running.browser, lang === 'ja' ? 'ja-JP' : 'en-US', WIDE);
      await page.goto(pageUrl('/'));
      // The landing page links them beside its plans too.
      await poll(() => page.locator('main').getByRole('link', { name: words.commerce }).count()).toBe(1);
      const footer = page.locator('footer').getByRole('list', { name: words.legal });
      await footer.getByRole('link', { name: words.commerce }).click();
      await poll(() => page.getByTestId('commerce-seller').textContent()).toContain(words.sample);
      expect(await page.getByTestId('legal-sample').count()).toBe(1);
      expect(await page.getByTestId('commerce-registration').textContent()).toContain(words.sample);
      const price3 = page.getByTestId('commerce-price-3-month');
      await poll(() => price3.textContent()).toContain(words.price3[0]);
      expect(await price3.textContent()).toContain(words.price3[1]);
      // Only the plans configuration prices are listed as sold.
      expect(await page.getByTestId('commerce-price-11-month').count()).toBe(0);
      for (const row of [
        'paymentTiming',
        'renewal',
        'cancel',
        'refund',
        'otherCosts',
        'environment',
        'delivery',
      ]) {
        expect(await page.getByTestId(`commerce-${row}`).count(), row).toBe(1);
      }
      await shootBoth(page, `commerce-tokushoho-${lang}`);

      await footer.getByRole('link', { name: words.privacy }).click();
      await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(words.privacy);
      for (const text of words.abroad) expect(await page.locator('main').textContent()).toContain(text);
      await expectNoSeriousAxeViolations(page);
      await screenshot(page, `commerce-privacy-1280-${lang}`);

      await footer.getByRole('link', { name: words.terms }).click();
      await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(words.terms);
      expect(await page.locator('main').textContent()).toContain(words.termsTrial);
      await expectNoSeriousAxeViolations(page);
      await page.context().close();
    }
  }, 120_000);

  it('confirms the card that ends the trial item by item, then a cancellation runs out and the plan is ordered again', async () => {
    const page = await openPage(running.browser, 'ja-JP', WIDE);
    const account = { email: 'order@example.jp', password: 'mimamori-pass-1', labels: SIGN_UP_LABELS.ja };
    await signedUpAndIn(page, running.product.url, account);
    await page.goto(pageUrl('/newcard'));
    const order = page.getByTestId('order-confirmation');
    for (const lang of ['ja', 'en'] as const) {
      await readIn(page, lang);
      const words = WORDS[lang];
      await poll(() => order.getByTestId('order-price').textContent()).toContain(words.order.price[0]);
      for (const [item, texts] of Object.entries(words.order)) {
        const text = await order.getByTestId(`order-${item}`).textContent();
        for (const part of texts) expect(text, item).toContain(part);
      }
      // Every condition sits above the button, in the body's type: nothing large hides them.
      const button = page.getByRole('button', { name: words.submit });
      const orderBox = await order.boundingBox();
      const buttonBox = await button.boundingBox();
      expect((orderBox?.y ?? 0) + (orderBox?.height ?? 0)).toBeLessThanOrEqual(buttonBox?.y ?? 0);
      const sizes = await order
        .locator('dd')
        .evaluateAll((items) => items.map((item) => Number.parseFloat(getComputedStyle(item).fontSize)));
      expect(Math.min(...sizes)).toBeGreaterThanOrEqual(14);
      expect(new Set(sizes).size).toBe(1);
      await expectLegalLinksInMain(page, lang);
      await shootBoth(page, `commerce-confirm-card-${lang}`);
    }

    await readIn(page, 'ja');
    await page
      .getByTestId('test-card-form')
      .getByRole('radio', { name: 'Visa(テスト用・支払い成功)' })
      .check();
    await page.getByRole('button', { name: WORDS.ja.submit }).click();
    await poll(() => page.getByRole('status').first().textContent()).toContain('•••• 4242');
    await advanceDays(15);
    await poll(() => billingStatus(page)).toBe(2);

    // A change now is a paid order too: what it charges now and from when the new price applies.
    await page.goto(pageUrl('/planchange'));
    await page
      .getByTestId('plan-change-form')
      .getByRole('radio', { name: /^ベーシック25 25サイト/ })
      .check();
    await poll(() => page.getByTestId('order-now').textContent()).toContain('今の期間の残り分');
    expect(await page.getByTestId('order-price').textContent()).toContain(
      '¥2,980 / 月（税込・うち消費税¥270）',
    );
    await expectLegalLinksInMain(page, 'ja');
    await shootBoth(page, 'commerce-confirm-planchange-ja');

    await page.goto(pageUrl('/cancel'));
    await expectLegalLinksInMain(page, 'ja');
    const api = apiOf(page.context(), running.product.url);
    expect((await api.post('/api/billing/cancel', { reasons: ['too_expensive'] })).status).toBe(200);
    await page.goto(pageUrl('/account'));
    await poll(() => page.getByTestId('account-next-plan').textContent()).toContain('なし（');
    await expectLegalLinksInMain(page, 'ja');

    // The paid period runs out: the subscription ends (9) and the dashboard offers to order again.
    await advanceDays(31);
    // Sessions last 30 days on the product's clock, which has moved 46: the user signs in again.
    await signIn(page, running.product.url, account);
    await poll(() => billingStatus(page)).toBe(9);
    await page.goto(pageUrl('/'));
    const banner = page.getByTestId('subscription-banner');
    await poll(() => banner.getAttribute('data-state')).toBe('ended');
    await banner.getByRole('link', { name: '再度申し込む' }).click();
    const again = page.getByTestId('order-again');
    await poll(() => again.count()).toBe(1);
    expect(await page.getByTestId('current-plan').textContent()).toBe('なし（ご契約は終了しました）');
    await again.getByRole('radio', { name: /^ベーシック25 25サイト/ }).check();
    await poll(() => page.getByTestId('order-now').textContent()).toContain(
      '¥2,980（税込・うち消費税¥270）（ご注文の確定時にお支払いいただきます）',
    );
    expect(await page.getByTestId('order-schedule').textContent()).toContain('ご注文の確定時に');
    expect(await page.getByTestId('order-renewal').textContent()).toContain('解約するまで自動で更新されます');
    await shootBoth(page, 'commerce-order-again-ja');
    await again.getByRole('button', { name: WORDS.ja.submit }).click();
    await poll(() => page.locator('main .form-message.success').first().textContent()).toContain(
      'ベーシック25 (月払い) でご契約を再開しました',
    );
    expect(await billingStatus(page)).toBe(2);
    const info = await api.get('/api/user_info');
    expect(info.body).toMatchObject({ subscription: { status: 2, s_info: { Plan: 5 } } });
    await page.context().close();
  }, 180_000);
});
