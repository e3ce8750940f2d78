import type { BrowserContext, Page } from 'playwright-core';
import { describe, type ExpectStatic, expect, it } from 'vitest';
import { en, ja } from '../web/src/i18n/catalogue.ts';
import { linkFromMailbox, mailFromMailbox } from './mailbox.ts';
import {
  type Api,
  apiOf,
  chooseSuggestedTimezone,
  expectNoSeriousAxeViolations,
  expectNoSidewaysOverflow,
  NARROW,
  openNavigation,
  productAndBrowser,
  type SignUpLabels,
  screenshot,
  signIn,
  signUpAndVerify,
  WIDE,
} from './steps.ts';

// A new site's first update is its second start check, a product minute after the first, seeing
// the demo shop's next price (ADR 0020). That minute must outlast a check on a busy machine, or the
// second check overtakes the first and the update waits for the site's phase, 10 minutes on the
// default plan: 20 s here (at a 10 s minute one run in four waited 108 s; at the tests' usual 2 s
// the product, busy with screenshots, also answered some picture requests 503). The shop's prices
// change every half minute, so a first check that read the page late (its start still on its way
// to the scheduler, a cold browser) still reads another price than the second: with a change
// every minute, one CI run in about six saw both read one price and the phase outlast the test.
const running = productAndBrowser(() => ({ env: { MIMAMORI_TIME_SCALE: '3' } }));

const pageUrl = (path: string) => new URL(path, running.product.url).href;

/** A verified, signed-in user talking to the API directly, for what a screen cannot show. */
async function signedInApi(email: string): Promise<{ api: Api; context: BrowserContext }> {
  const context = await running.browser.newContext();
  // The first answer sets the CSRF cookie.
  await context.request.get(pageUrl('/api/user_info'));
  const api = apiOf(context, running.product.url);
  const password = 'journey-pass-1';
  expect((await api.post('/api/signup', { email, password, agree: true, lang: 'en' })).status).toBe(202);
  const link = new URL(await linkFromMailbox(running.product.url, email, '/verify'), running.product.url);
  expect((await api.post('/api/verify', { token: link.searchParams.get('token') })).status).toBe(200);
  expect((await api.post('/api/signin', { email, password })).status).toBe(200);
  return { api, context };
}

type PreviewAnswer = {
  session_id?: string;
  problem?: { code: string };
  render?: { elements: { css: string; text: string }[] };
};

describe('the demo shop of the single-process product', () => {
  it("is opened by the product's own crawler, while the rest of the product stays refused to it", async () => {
    const { api: visitor, context } = await signedInApi('crawler-reach@example.com');
    const shop = (await visitor.post('/api/preview/open', { url: pageUrl('/mock/ec') }))
      .body as PreviewAnswer;
    expect(shop.problem).toBeUndefined();
    // The prices are drawn by script: seeing them proves the page's script files came through too.
    const prices = shop.render?.elements.filter((element) => /^¥[\d,]+$/.test(element.text.trim())) ?? [];
    expect(prices.map((element) => element.css)).toEqual(
      expect.arrayContaining([expect.stringContaining('price-tea')]),
    );
    await visitor.post('/api/preview/close', { session_id: shop.session_id });

    // The local mailbox holds every user's sign-in links: the crawler must never read it.
    const mailbox = (await visitor.post('/api/preview/open', { url: pageUrl('/dev/mailbox') }))
      .body as PreviewAnswer;
    expect(mailbox.problem?.code).toBe('refused_address');
    await context.close();
  });
});

type Language = 'ja' | 'en';
type Tree = { [key: string]: string | Tree };
type Translate = (key: string, values?: Record<string, string | number>) => string;

/** The SPA's own catalogue for a language. */
async function translator(language: Language): Promise<Translate> {
  const tree = (language === 'ja' ? ja : en) as unknown as Tree;
  return (key, values = {}) => {
    let node: string | Tree | undefined = tree;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    if (typeof node !== 'string') throw new Error(`no ${language} text for ${key}`);
    return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name] ?? ''));
  };
}

/** What the tour promises a new user: the first update mail within 3 minutes of registering. */
const FIRST_MAIL_PROMISE_MS = 180_000;
/** The crawler's desktop window, the width its pictures are taken at. */
const CRAWLER_VIEWPORT = { width: 1280, height: 800 };
/** The diff service draws the box this many image pixels outside the element. */
const HIGHLIGHT_PADDING = 4;
/** Image pixels of slack for rounding and the picture's scaling. */
const HIGHLIGHT_TOLERANCE_PX = 4;

/**
 * The box around the red highlight's pixels in an <img>, in the image's own pixels; null when
 * it has none. Runs in the page, reading the decoded picture through a canvas.
 */
function redBoxOf(image: HTMLImageElement) {
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext('2d');
  if (!context) return null;
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
  let box: { left: number; top: number; right: number; bottom: number } | null = null;
  for (let y = 0; y < canvas.height; y++) {
    for (let x = 0; x < canvas.width; x++) {
      const at = (y * canvas.width + x) * 4;
      const [r, g, b] = [data[at] ?? 0, data[at + 1] ?? 0, data[at + 2] ?? 0];
      if (r < 190 || g > 70 || b > 70) continue;
      box = box
        ? {
            left: Math.min(box.left, x),
            top: Math.min(box.top, y),
            right: Math.max(box.right, x),
            bottom: Math.max(box.bottom, y),
          }
        : { left: x, top: y, right: x, bottom: y };
    }
  }
  return box && { ...box, imageWidth: canvas.width };
}

/**
 * A new site is checked at once and a minute later (ADR 0020), and prices move each half minute: the
 * update comes about a minute after registering, on any plan.
 */
const UPDATE_WAIT_MS = 240_000;
const PREVIEW_WAIT_MS = 90_000;
/** A clicked area is read again from the live page; slow while other test files share the two cores. */
const READING_WAIT_MS = 15_000;

async function expectFinishedScreen(expect: ExpectStatic, page: Page) {
  await expectNoSidewaysOverflow(page, expect);
  await expectNoSeriousAxeViolations(page, expect);
}

/**
 * The sign-up, verify and sign-in screens' words, from the SPA's own catalogue; the plan sign-up
 * offers by default (Basic 5: 10-minute slots, no 1-minute one) unless one is named.
 */
const signUpLabels = (t: Translate, plan: 'basic5' | 'basic5_1min' = 'basic5'): SignUpLabels => ({
  email: t('form.email'),
  password: t('form.password'),
  ...(plan !== 'basic5' && { plan: t(`plans.${plan}`) }),
  agree: t('signup.agree'),
  submit: t('signup.submit'),
  mailSent: t('signup.sentTitle'),
  verified: t('verify.verified'),
  signIn: t('signin.submit'),
});

// Three on the default plan, as most new users are; one on a plan with 1-minute slots.
const runs = [
  { language: 'ja', width: 'wide', plan: 'basic5' },
  { language: 'en', width: 'wide', plan: 'basic5_1min' },
  { language: 'ja', width: 'narrow', plan: 'basic5' },
  { language: 'en', width: 'narrow', plan: 'basic5' },
] as const;

// Four people on one product, each waiting for their own first update, two at a time (the e2e
// project's maxConcurrency): one after another they took 200 s of a CI run, mostly waiting for the
// product's minute; all four at once, on a CI machine's two cores beside two other files, one took
// 93 s, so each has more time than one alone needs.
describe('a new user watches the demo shop', () => {
  it.concurrent.for(runs)(
    'signs up, registers a price with the wizard and sees its update arrive — $language, $width, $plan',
    { timeout: 180_000 },
    async ({ language, width, plan }, { expect }) => {
      const t = await translator(language);
      const name = `${width}-${language}`;
      const zone = language === 'ja' ? 'Asia/Tokyo' : 'America/New_York';
      const context = await running.browser.newContext({
        locale: language === 'ja' ? 'ja-JP' : 'en-US',
        timezoneId: zone,
        viewport: width === 'wide' ? WIDE : NARROW,
      });
      const page = await context.newPage();
      const email = `journey-${name}@example.com`;
      const password = 'journey-pass-1';

      // The landing page a signed-out visitor starts from, and its way to sign up.
      await page.goto(pageUrl('/'));
      const start = page.getByRole('link', { name: t('landing.hero.start') }).first();
      await expect.poll(() => start.count()).toBe(1);
      await expectFinishedScreen(expect, page);
      await screenshot(page, `journey-landing-${name}`);
      await start.click();
      await page.waitForURL((url) => url.pathname === '/signup');
      await expect.poll(() => page.getByLabel(t('form.email')).count()).toBe(1);
      await expectFinishedScreen(expect, page);
      await screenshot(page, `journey-signup-${name}`);

      const labels = signUpLabels(t, plan);
      await signUpAndVerify(page, running.product.url, { email, password, labels }, expect);

      await signIn(page, running.product.url, { email, password, labels }, async () => {
        await expectFinishedScreen(expect, page);
        await screenshot(page, `journey-signin-${name}`);
      });

      // Sign-up sets no time zone, so the dashboard asks, suggesting the browser's own by name.
      await expect
        .poll(() => page.getByRole('dialog', { name: t('dashboard.timezone.title') }).count())
        .toBe(1);
      await expectFinishedScreen(expect, page);
      await screenshot(page, `journey-timezone-${name}`);
      expect(await chooseSuggestedTimezone(page, expect)).toBe(zone);

      // A first-time user with no site is offered the tour on the dashboard.
      const tour = page.getByRole('region', { name: t('tour.steps.register.title') });
      await expect.poll(() => tour.count()).toBe(1);
      await expect.poll(() => page.getByText(t('dashboard.sites.empty')).count()).toBe(1);
      await expectFinishedScreen(expect, page);
      await screenshot(page, `journey-dashboard-tour-${name}`);

      // The shop itself, as the user sees it before watching it.
      const shop = await context.newPage();
      await shop.goto(pageUrl('/mock/ec'));
      await expect.poll(() => shop.locator('#price-tea').textContent()).toMatch(/^¥[\d,]+$/);
      expect(
        await shop.getByRole('heading', { level: 2, name: t('mockShop.products.tea.name') }).count(),
      ).toBe(1);
      await expectFinishedScreen(expect, shop);
      await screenshot(shop, `journey-mock-shop-${name}`);
      await shop.close();

      await tour.getByRole('link', { name: t('tour.start') }).click();
      await page.waitForURL((url) => url.pathname === (width === 'wide' ? '/sr2c' : '/sr2m'));
      // The tour filled in the demo shop's address.
      const urlField = page.getByLabel(t('wizard.url.url'), { exact: true });
      await expect.poll(() => urlField.inputValue()).toBe(pageUrl('/mock/ec'));
      await expect.poll(() => page.getByRole('region', { name: t('tour.steps.url.title') }).count()).toBe(1);
      await expectFinishedScreen(expect, page);
      await screenshot(page, `journey-wizard-url-${name}`);

      const next = page.getByRole('button', { name: t('wizard.next'), exact: true });
      const stepHeading = (step: string, number: number) =>
        page.getByRole('heading', {
          name: t('wizard.stepHeading', { number, total: 5, name: t(`wizard.steps.${step}`) }),
        });
      await next.click();
      await expect.poll(() => stepHeading('display', 2).count(), { timeout: PREVIEW_WAIT_MS }).toBe(1);
      await expect
        .poll(() => page.getByRole('region', { name: t('tour.steps.beforeAreas.title') }).count())
        .toBe(1);
      await screenshot(page, `journey-wizard-display-${name}`);
      // Login and actions are optional steps: passed with Next.
      await next.click();
      await expect
        .poll(() =>
          page
            .getByRole('heading', { name: t('wizard.optionalStep', { name: t('wizard.steps.login') }) })
            .count(),
        )
        .toBe(1);
      await next.click();
      await expect
        .poll(() =>
          page
            .getByRole('heading', { name: t('wizard.optionalStep', { name: t('wizard.steps.actions') }) })
            .count(),
        )
        .toBe(1);
      await next.click();
      await expect.poll(() => stepHeading('areas', 3).count()).toBe(1);

      // Click one of the prices on the screenshot of the shop.
      await expect.poll(() => page.getByRole('region', { name: t('tour.steps.area.title') }).count()).toBe(1);
      // The crawler read the shop in the user's language, as a real shop localises by Accept-Language.
      expect(
        await page.getByRole('button', { name: t('mockShop.products.tea.name'), exact: true }).count(),
      ).toBeGreaterThan(0);
      const price = page.getByRole('button', { name: /^\s*¥[\d,]+\s*$/ }).first();
      await price.click();
      await expect
        .poll(() => page.getByText(t('wizard.areas.designated', { count: 1 })).count(), {
          timeout: READING_WAIT_MS,
        })
        .toBe(1);
      await expectFinishedScreen(expect, page);
      await screenshot(page, `journey-wizard-areas-${name}`);
      await next.click();
      await expect.poll(() => stepHeading('content', 4).count()).toBe(1);
      await screenshot(page, `journey-wizard-content-${name}`);
      await next.click();
      await expect.poll(() => stepHeading('notify', 5).count()).toBe(1);
      await expect
        .poll(() => page.getByRole('region', { name: t('tour.steps.notify.title') }).count())
        .toBe(1);

      const label = `Tea ${name}`;
      await page.getByLabel(t('wizard.notify.label'), { exact: true }).fill(label);
      // The tour keeps the wizard's defaults: the fastest interval the plan has a free slot for.
      const fastest = t(plan === 'basic5' ? 'wizard.notify.every._10min' : 'wizard.notify.every._1min');
      await expect
        .poll(() => page.getByRole('button', { name: fastest, exact: true }).getAttribute('aria-pressed'))
        .toBe('true');
      // Pictures in the mail and on the history page, with the change boxed.
      // The demo shop comes with screenshots on, so its mail shows the pictures.
      await expect
        .poll(() => page.getByRole('checkbox', { name: t('wizard.notify.screenshot') }).isChecked())
        .toBe(true);
      await expectFinishedScreen(expect, page);
      await screenshot(page, `journey-wizard-notify-${name}`);
      await page.getByRole('button', { name: t('wizard.register'), exact: true }).click();
      const registeredAt = Date.now();
      await page.waitForURL((url) => url.pathname === '/target2', { timeout: 30_000 });
      const targetId = new URL(page.url()).searchParams.get('id') ?? '';
      expect(targetId).not.toBe('');
      // The tour says the site monitors, only once it does.
      await expect
        .poll(() => page.getByRole('region', { name: t('tour.registered.monitoring.title') }).count())
        .toBe(1);
      await screenshot(page, `journey-tour-registered-${name}`);
      await page.getByRole('button', { name: t('tour.finish') }).click();

      // The update arrives on the dashboard: NEW beside the site, with its update time.
      await page.goto(pageUrl('/'));
      const row =
        width === 'wide'
          ? page.getByRole('row').filter({ hasText: label })
          : page.getByRole('listitem').filter({ hasText: label });
      await expect
        .poll(
          async () => {
            await page.getByRole('button', { name: t('dashboard.sites.refresh') }).click();
            return row.getByText(t('dashboard.sites.badges.new'), { exact: true }).count();
          },
          { timeout: UPDATE_WAIT_MS, interval: 1_000 },
        )
        .toBe(1);
      // The tour is over: finished, it does not come back.
      expect(await page.getByRole('region', { name: t('tour.steps.register.title') }).count()).toBe(0);
      await expectFinishedScreen(expect, page);
      await screenshot(page, `journey-dashboard-update-${name}`);

      // The tour's promise: the first update mail within 3 minutes of registering. It names the
      // area, links to the site's history and carries pictures every mail program shows.
      const historyLink = `${pageUrl('/target2')}?id=${encodeURIComponent(targetId)}`;
      const mail = await mailFromMailbox(
        running.product.url,
        email,
        historyLink,
        Math.max(5_000, FIRST_MAIL_PROMISE_MS - (Date.now() - registeredAt)),
      );
      // The area is named after the product whose price was clicked, as the shop's page says.
      const products = ['tea', 'mug', 'earbuds', 'backpack'].map((id) => t(`mockShop.products.${id}.name`));
      const areaNames = products.map((product) =>
        `${product} ${t('mockShop.price')}`.length > 30 ? product : `${product} ${t('mockShop.price')}`,
      );
      expect(areaNames.some((areaName) => mail.text.includes(`[${areaName}]`))).toBe(true);
      expect(mail.text).toContain(label);
      // Times in the zone the user chose, by a name people read, never "Etc/GMT-9".
      if (language === 'ja') expect(mail.text).toContain('（日本時間）');
      expect(mail.text).not.toContain('Etc/GMT');
      expect(mail.attachmentTypes.length).toBeGreaterThan(0);
      for (const type of mail.attachmentTypes) expect(type).toMatch(/^image\/(jpeg|png)$/);
      const mailPage = await context.newPage();
      await mailPage.goto(new URL(mail.path, running.product.url).href);
      await expectNoSidewaysOverflow(mailPage, expect);
      await screenshot(mailPage, `journey-mail-${name}`);
      await mailPage.close();

      // And on the site's page, the update with the old and new price.
      await row.getByRole('link', { name: label }).click();
      await page.waitForURL((url) => url.pathname === '/target2');
      const update = page
        .getByTestId('history-entry')
        .filter({ hasText: t('siteDetail.outcome_update') })
        .first();
      await expect.poll(() => update.count(), { timeout: 30_000 }).toBe(1);
      // Before and after, side by side or inline as the screen lays it out.
      const diff = update.getByTestId('diff-side').or(update.getByTestId('diff-inline')).first();
      await expect.poll(() => diff.textContent()).toMatch(/¥[\d,]+[\s\S]*¥[\d,]+/);
      await expectFinishedScreen(expect, page);
      await screenshot(page, `journey-site-detail-${name}`);

      // The red box on the after picture sits on a price of the shop as the crawler saw it
      // (1280 px wide), within a few pixels, not beside it.
      const after = update.getByRole('img', { name: /^.+$/ }).last();
      await after.scrollIntoViewIfNeeded();
      await expect.poll(() => after.evaluate((image: HTMLImageElement) => image.complete)).toBe(true);
      const redBox = await after.evaluate(redBoxOf);
      expect(redBox).not.toBeNull();
      const measure = await context.newPage();
      await measure.setViewportSize(CRAWLER_VIEWPORT);
      await measure.goto(pageUrl('/mock/ec'));
      await expect.poll(() => measure.locator('#price-tea').textContent()).toMatch(/^¥[\d,]+$/);
      const prices = await measure.locator('.mock-shop-price').evaluateAll((spans) =>
        spans.map((span) => {
          const rect = span.getBoundingClientRect();
          return {
            x: rect.x + window.scrollX,
            y: rect.y + window.scrollY,
            width: rect.width,
            height: rect.height,
          };
        }),
      );
      await measure.close();
      const scale = (redBox?.imageWidth ?? 0) / CRAWLER_VIEWPORT.width;
      const misses = prices.map((box) =>
        Math.max(
          Math.abs(box.x * scale - HIGHLIGHT_PADDING - (redBox?.left ?? 0)),
          Math.abs(box.y * scale - HIGHLIGHT_PADDING - (redBox?.top ?? 0)),
          Math.abs((box.x + box.width) * scale + HIGHLIGHT_PADDING - (redBox?.right ?? 0)),
          Math.abs((box.y + box.height) * scale + HIGHLIGHT_PADDING - (redBox?.bottom ?? 0)),
        ),
      );
      expect(Math.min(...misses)).toBeLessThanOrEqual(HIGHLIGHT_TOLERANCE_PX);
      if (width === 'wide') {
        await page.getByRole('radio', { name: t('siteDetail.sideBySide') }).check();
        await expect
          .poll(() => update.getByTestId('diff-side').textContent())
          .toMatch(/¥[\d,]+[\s\S]*¥[\d,]+/);
        await screenshot(page, `journey-site-detail-side-by-side-${name}`);
      }

      // The account screen of the same user, for the record of every main screen.
      await openNavigation(page);
      await page
        .getByRole('navigation')
        .getByRole('link', { name: t('nav.account') })
        .click();
      await expect.poll(() => page.getByTestId('account-email').textContent()).toBe(email);
      await expectFinishedScreen(expect, page);
      await screenshot(page, `journey-account-${name}`);
      await context.close();
    },
  );

  it('lets the tour be ended from the keyboard, and does not offer it again', async ({ expect }) => {
    const t = await translator('en');
    const context = await running.browser.newContext({ locale: 'en-US', viewport: WIDE });
    const page = await context.newPage();
    const account = {
      email: 'tour-skipper@example.com',
      password: 'journey-pass-1',
      labels: signUpLabels(t),
    };
    await signUpAndVerify(page, running.product.url, account, expect);
    await signIn(page, running.product.url, account);
    await chooseSuggestedTimezone(page, expect);
    const tour = page.getByRole('region', { name: t('tour.steps.register.title') });
    await expect.poll(() => tour.count()).toBe(1);

    // Escape inside the tour ends it, as the End button does.
    await tour.getByRole('link', { name: t('tour.start') }).focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => tour.count()).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: t('dashboard.sites.title') }).count()).toBe(1);
    expect(await tour.count()).toBe(0);
    // Nor does the wizard speak of it.
    await page.goto(pageUrl('/sr2c'));
    await expect.poll(() => page.getByLabel(t('wizard.url.url'), { exact: true }).count()).toBe(1);
    expect(await page.getByRole('region', { name: t('tour.steps.url.title') }).count()).toBe(0);
    expect(await page.getByLabel(t('wizard.url.url'), { exact: true }).inputValue()).toBe('');
    await context.close();
  });
});
