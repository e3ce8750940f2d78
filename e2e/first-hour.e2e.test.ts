import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  type Api,
  apiOf,
  expectNoSeriousAxeViolations,
  expectNoSidewaysOverflow,
  NARROW,
  productAndBrowser,
  screenshot,
  signedUpAndIn,
  WIDE,
} from './steps.ts';

// A new user's first hour on the plan sign-up offers by default (Basic 5): the screen's language
// switch, the phone's menu and the reasons beside what cannot be used.
const running = productAndBrowser();

const pageUrl = (path: string) => new URL(path, running.product.url).href;

const JA = {
  email: 'メールアドレス',
  password: 'パスワード',
  agree: '利用規約に同意する',
  submit: '無料で登録する',
  mailSent: 'メールを確認してください',
  verified: 'メールアドレスを確認しました。',
  signIn: 'ログイン',
};

async function newUser(
  email: string,
  viewport: { width: number; height: number },
): Promise<{ page: Page; api: Api }> {
  const context = await running.browser.newContext({ locale: 'ja-JP', timezoneId: 'Asia/Tokyo', viewport });
  const page = await context.newPage();
  await signedUpAndIn(page, running.product.url, { email, password: 'first-hour-1', labels: JA });
  return { page, api: apiOf(context, running.product.url) };
}

/** The demo shop opens in the crawler's browser; slow while other test files share the two cores. */
const PAGE_LOAD = { timeout: 90_000 };
/** A clicked area is read again from the live page. */
const READING = { timeout: 15_000 };

const accountLanguage = async (api: Api) =>
  ((await api.get('/api/user_info')).body as { locale: { Lang: string } }).locale.Lang;

describe("a new user's first hour", () => {
  it('switches the screen to English from the footer without changing the language mails are written in', async () => {
    const { page, api } = await newUser('footer-language@example.com', WIDE);
    expect(await accountLanguage(api)).toBe('ja');

    await page.getByRole('button', { name: 'English', exact: true }).click();
    await expect.poll(() => page.getAttribute('html', 'lang')).toBe('en');
    // The account, and so the next mail, keeps Japanese; the footer says so and offers to save.
    const offer = page.getByRole('button', { name: 'Save English to my account' });
    await expect.poll(() => offer.count()).toBe(1);
    expect(
      await page.getByText("Your account's language, which mails are written in, stays Japanese.").count(),
    ).toBe(1);
    expect(await accountLanguage(api)).toBe('ja');
    // The screen's choice holds in this browser after a reload, and the account still is not touched.
    await page.reload();
    await expect.poll(() => page.getAttribute('html', 'lang')).toBe('en');
    await expect.poll(() => offer.count()).toBe(1);
    expect(await accountLanguage(api)).toBe('ja');
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, 'first-hour-footer-language-offer-en');
    await page.setViewportSize(NARROW);
    // The narrow layout follows the window (the menu button stands for it).
    await expect.poll(() => page.getByRole('button', { name: 'Menu' }).count()).toBe(1);
    // The tour's ring is measured again a moment after the window changes.
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(375);
    await screenshot(page, 'first-hour-footer-language-offer-narrow-en');
    await page.setViewportSize(WIDE);

    // Saving is the user's own choice, and then the account follows.
    await offer.click();
    await expect.poll(() => accountLanguage(api)).toBe('en');
    await expect
      .poll(() =>
        page.getByText("Your account's language is now English; mails come in English too.").count(),
      )
      .toBe(1);
    expect(await offer.count()).toBe(0);

    // Back to Japanese on the screen only: the account stays English.
    await page.getByRole('button', { name: '日本語', exact: true }).click();
    await expect.poll(() => page.getAttribute('html', 'lang')).toBe('ja');
    await expect.poll(() => page.getByRole('button', { name: '日本語をアカウントに保存' }).count()).toBe(1);
    expect(await accountLanguage(api)).toBe('en');
    await page.context().close();
  });

  it('closes the phone menu with Escape, wherever the focus is, and gives the focus back to its button', async () => {
    const { page } = await newUser('phone-menu@example.com', NARROW);
    const menu = page.getByRole('button', { name: 'メニュー' });
    await menu.click();
    await expect.poll(() => page.getByRole('navigation').count()).toBe(1);
    // Right after opening, the focus is on the menu button, outside the menu.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('navigation').count()).toBe(0);
    expect(await menu.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');

    await menu.click();
    await page.getByRole('navigation').getByRole('link', { name: 'アカウント' }).focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('navigation').count()).toBe(0);
    expect(await menu.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.context().close();
  });

  it('tells the truth when the site the tour registers is saved paused: why, and what to do', async () => {
    const { page, api } = await newUser('tour-full-plan@example.com', WIDE);
    const tour = page.getByRole('region', { name: '最初のサイトを登録しましょう' });
    await expect.poll(() => tour.count()).toBe(1);
    await tour.getByRole('link', { name: '登録を始める' }).click();
    await page.waitForURL((url) => url.pathname === '/sr2c');
    // Meanwhile the plan's five slots fill up, so the demo shop has none left.
    const sites = ['a', 'b', 'c', 'd', 'e'].map((item) => `${pageUrl(`/mock/ec?item=${item}`)},Shop ${item}`);
    expect((await api.post('/api/v1/import', { text: sites.join('\n') })).status).toBe(200);

    const next = page.getByRole('button', { name: '次へ', exact: true });
    const heading = (name: string) => page.getByRole('heading', { name, exact: true });
    await expect.poll(() => page.getByLabel('URL', { exact: true }).inputValue()).toBe(pageUrl('/mock/ec'));
    await next.click();
    await expect.poll(() => heading('ステップ 2/5: サイト表示の確認').count(), PAGE_LOAD).toBe(1);
    await next.click();
    await expect.poll(() => heading('ログイン設定 (任意)').count()).toBe(1);
    await next.click();
    await expect.poll(() => heading('アクション設定 (任意)').count()).toBe(1);
    await next.click();
    await expect.poll(() => heading('ステップ 3/5: 監視エリアの指定').count()).toBe(1);
    await page
      .getByRole('button', { name: /^\s*¥[\d,]+\s*$/ })
      .first()
      .click();
    await expect.poll(() => page.getByText('指定したエリア (1)').count(), READING).toBe(1);
    await next.click();
    await expect.poll(() => heading('ステップ 4/5: エリア内容の確認').count()).toBe(1);
    await next.click();
    await expect.poll(() => heading('ステップ 5/5: 通知設定').count()).toBe(1);
    await page.getByRole('button', { name: '登録する', exact: true }).click();
    // The wizard says the monitoring could not start, then opens the site's page.
    const dialog = page.getByRole('alertdialog');
    await expect
      .poll(() => dialog.textContent(), { timeout: 30_000 })
      .toContain('監視を開始できませんでした');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await page.waitForURL((url) => url.pathname === '/target2');

    // Not "registered" over a site that does not monitor: paused, why, and what to do.
    const told = page.getByRole('region', { name: '登録しましたが、監視は停止中です' });
    await expect.poll(() => told.count()).toBe(1);
    expect(await told.textContent()).toContain(
      '選んだチェック間隔の空き枠がプランにないため、停止中で保存されました。',
    );
    expect(await page.getByRole('region', { name: '登録できました。監視中です' }).count()).toBe(0);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, 'first-hour-tour-registered-paused-wide-ja');
    await page.context().close();
  });

  for (const [name, viewport] of [
    ['wide', WIDE],
    ['narrow', NARROW],
  ] as const) {
    it(`writes why a site cannot be resumed beside its Resume button — ${name}`, async () => {
      const { page, api } = await newUser(`resume-reason-${name}@example.com`, viewport);
      // The tour on a new user's dashboard, in Japanese at this width, for a look at its lines.
      await expect
        .poll(() => page.getByRole('region', { name: '最初のサイトを登録しましょう' }).count())
        .toBe(1);
      await screenshot(page, `first-hour-dashboard-tour-${name}-ja`);

      // Six sites on a 5-site plan: the sixth is saved paused, with no slot to resume it.
      const sites = ['a', 'b', 'c', 'd', 'e', 'f'].map(
        (item) => `${pageUrl(`/mock/ec?item=${item}`)},Shop ${item}`,
      );
      expect((await api.post('/api/v1/import', { text: sites.join('\n') })).status).toBe(200);
      await page.getByRole('button', { name: '最新の状態に更新' }).click();
      const resume = page.getByRole('button', { name: 'Shop f を再開' });
      await expect.poll(() => resume.count()).toBe(1);
      expect(await resume.isDisabled()).toBe(true);
      const reason = '空き枠がないため再開できません。間隔を変えるか、ほかのサイトを停止してください。';
      // In words on the screen, not only in a tooltip, and read out with the button.
      expect(await page.getByText(reason).isVisible()).toBe(true);
      expect(await resume.getAttribute('title')).toBeNull();
      const describedBy = (await resume.getAttribute('aria-describedby')) ?? '';
      expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(reason);
      await expectNoSidewaysOverflow(page);
      await expectNoSeriousAxeViolations(page);
      await screenshot(page, `first-hour-dashboard-resume-reason-${name}-ja`);

      await page.getByRole('button', { name: 'English', exact: true }).click();
      await expect
        .poll(() =>
          page.getByText('No free slot to resume it. Change its interval or pause another site.').count(),
        )
        .toBe(1);
      await screenshot(page, `first-hour-dashboard-resume-reason-${name}-en`);
      await page.context().close();
    });
  }
});
