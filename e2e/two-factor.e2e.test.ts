import { mkdir } from 'node:fs/promises';
import { totpCode } from '@mimamori/account';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { mailFromMailbox } from './mailbox.ts';
import {
  apiOf,
  chooseSuggestedTimezone,
  expectNoSeriousAxeViolations,
  expectNoSidewaysOverflow,
  NARROW,
  productAndBrowser,
  SIGN_UP_LABELS,
  type SignUpLabels,
  shots,
  signUpAndVerify,
  WIDE,
} from './steps.ts';

// One product for the file. Its pages are opened at localhost rather than 127.0.0.1: a passkey's
// relying party is a host name (WebAuthn refuses an IP address), and the gateway takes it from
// the address the browser used.
const running = productAndBrowser();
/** The screenshots go with the others, or where MIMAMORI_SHOTS_DIR says (a reviewer's folder). */
const SHOTS = process.env.MIMAMORI_SHOTS_DIR ?? shots;
const PASSWORD = 'abcd1234';

type Words = {
  setUp: string;
  turnOn: string;
  code: string;
  verify: string;
  useRecovery: string;
  recovery: string;
  codeMismatch: string;
  thisDevice: string;
  passkeyName: string;
  addPasskey: string;
  passkeyAdded: string;
  withPasskey: string;
  usePasskey: string;
  endLabel: RegExp;
  newDeviceMail: string;
};
const WORDS: Record<'ja' | 'en', Words> = {
  ja: {
    setUp: '2段階認証を設定する',
    turnOn: '有効にする',
    code: '確認コード（6桁）',
    verify: '確認する',
    useRecovery: 'リカバリーコードを使う',
    recovery: 'リカバリーコード',
    codeMismatch: 'コードが正しくないか、すでに使われています。',
    thisDevice: 'この端末',
    passkeyName: 'パスキーの名前',
    addPasskey: 'パスキーを登録する',
    passkeyAdded: 'パスキーを登録しました。',
    withPasskey: 'パスキーでログイン',
    usePasskey: 'パスキーで確認する',
    endLabel: /のセッションを終了$/,
    newDeviceMail: 'これまでに使われていない端末から',
  },
  en: {
    setUp: 'Set up two-factor sign-in',
    turnOn: 'Turn on',
    code: 'Code (6 digits)',
    verify: 'Verify',
    useRecovery: 'Use a recovery code',
    recovery: 'Recovery code',
    codeMismatch: 'The code is wrong or already used.',
    thisDevice: 'This device',
    passkeyName: 'Passkey name',
    addPasskey: 'Register a passkey',
    passkeyAdded: 'Passkey registered.',
    withPasskey: 'Sign in with a passkey',
    usePasskey: 'Verify with a passkey',
    endLabel: /^End the session of /,
    newDeviceMail: 'from a device not used with it before',
  },
};

const at = (path: string) => {
  const url = new URL(path, running.product.url);
  url.hostname = 'localhost';
  return url.href;
};
const localUrl = () => new URL(at('/'));

async function newPage(browser: Browser, lang: 'ja' | 'en'): Promise<Page> {
  const context = await browser.newContext({ locale: lang, viewport: WIDE });
  return context.newPage();
}

/** The password step; the second step's form follows for an account with a second factor. */
async function password(page: Page, email: string, labels: SignUpLabels) {
  await page.goto(at('/signin'));
  await page.getByLabel(labels.email).fill(email);
  await page.getByLabel(labels.password).fill(PASSWORD);
  await page.getByRole('button', { name: labels.signIn, exact: true }).click();
}

/** The code the user's phone would show from the secret the screen gave, a step ahead if asked. */
const phone = (secret: string, stepsAhead = 0) =>
  totpCode(secret, new Date(Date.now() + stepsAhead * 30_000));

async function shoot(page: Page, name: string) {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Sets TOTP up from the security page: the shown secret typed into "the phone", its recovery codes read. */
async function setUpTotp(page: Page, words: Words, lang: 'ja' | 'en') {
  await page.goto(at('/security'));
  await page.getByRole('button', { name: words.setUp }).click();
  const secret = String(await page.getByTestId('totp-secret').textContent()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  expect(await page.locator('img.totp-qr').getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
  const panel = page.getByTestId('totp-panel');
  await mkdir(SHOTS, { recursive: true });
  await expectNoSeriousAxeViolations(page);
  await panel.screenshot({ path: `${SHOTS}/37-totp-setup-${lang}-1280.png` });
  await page.getByLabel(words.code).fill(phone(secret));
  await page.getByRole('button', { name: words.turnOn }).click();
  const list = page.getByTestId('recovery-codes').locator('li');
  await expect
    .poll(async () => ((await list.count()) === 10 ? 10 : await page.locator('main').textContent()), {
      timeout: 15_000,
    })
    .toBe(10);
  const recovery = (await list.allTextContents()).map((code) => code.trim());
  await expectNoSeriousAxeViolations(page);
  await panel.screenshot({ path: `${SHOTS}/37-recovery-codes-${lang}-1280.png` });
  return { secret, recovery };
}

/** The security page at both widths: no sideways scroll, nothing serious for axe, a screenshot each. */
async function checkSecurityScreens(page: Page, lang: 'ja' | 'en') {
  for (const [size, width] of [
    [WIDE, 1280],
    [NARROW, 375],
  ] as const) {
    await page.setViewportSize(size);
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth))
      .toBe(true);
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await shoot(page, `37-security-${lang}-${width}`);
  }
  await page.setViewportSize(WIDE);
}

async function virtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

describe('two-factor sign-in, passkeys and sessions in the running product', () => {
  it('ja: TOTP set up from the shown secret, sign-in with a code and with a recovery code (once), a new-device mail, another session ended', async () => {
    const { browser } = running;
    const words = WORDS.ja;
    const labels = SIGN_UP_LABELS.ja;
    const email = 'tf-ja@example.jp';
    const owner = await newPage(browser, 'ja');
    await signUpAndVerify(owner, localUrl(), { email, password: PASSWORD, labels });
    await password(owner, email, labels);
    await owner.waitForURL((url) => url.pathname === '/');
    await chooseSuggestedTimezone(owner);

    const { secret, recovery } = await setUpTotp(owner, words, 'ja');

    // Another browser: the password, then the code from the phone (the next step's: the first
    // one was spent turning TOTP on, and a code works once).
    const other = await newPage(browser, 'ja');
    await password(other, email, labels);
    const step = other.getByTestId('second-step');
    await expect.poll(() => step.count()).toBe(1);
    expect(await apiOf(other.context(), localUrl()).get('/api/user_info')).toMatchObject({ status: 401 });
    await expectNoSeriousAxeViolations(other);
    await shoot(other, '37-signin-code-ja-1280');
    await step.getByLabel(words.code).fill(phone(secret, 1));
    await step.getByRole('button', { name: words.verify }).click();
    await other.waitForURL((url) => url.pathname === '/');

    // The owner hears of the new browser, with a link to the session list.
    const mail = await mailFromMailbox(localUrl(), email, words.newDeviceMail, 60_000);
    expect(mail.text).toMatch(/端末: LinuxのChrome/);
    expect(mail.text).toMatch(/\/security/);

    // A recovery code signs in once; the same code again is refused.
    const third = await newPage(browser, 'ja');
    await password(third, email, labels);
    await third.getByRole('button', { name: words.useRecovery }).click();
    await third.getByLabel(words.recovery).fill(recovery[0] ?? '');
    await third.getByRole('button', { name: words.verify }).click();
    await third.waitForURL((url) => url.pathname === '/');
    const fourth = await newPage(browser, 'ja');
    await password(fourth, email, labels);
    await fourth.getByRole('button', { name: words.useRecovery }).click();
    await fourth.getByLabel(words.recovery).fill(recovery[0] ?? '');
    await fourth.getByRole('button', { name: words.verify }).click();
    await expect.poll(() => fourth.getByRole('alert').textContent()).toContain(words.codeMismatch);

    // The session list: this one marked, the others ended one by one; the ended tab is signed out.
    await owner.goto(at('/security'));
    const rows = owner.getByTestId('session-row');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await owner.locator('[data-testid="session-row"][data-current]').textContent()).toContain(
      words.thisDevice,
    );
    await checkSecurityScreens(owner, 'ja');
    await owner.getByRole('button', { name: words.endLabel }).first().click();
    await expect.poll(() => rows.count()).toBe(2);
    await owner.getByRole('button', { name: 'この端末以外をすべて終了' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    for (const ended of [other, third]) {
      await ended.goto(at('/security'));
      await ended.waitForURL((url) => url.pathname === '/signin');
    }
    expect(await apiOf(owner.context(), localUrl()).get('/api/user_info')).toMatchObject({ status: 200 });
    for (const page of [owner, other, third, fourth]) await page.context().close();
  });

  it('en: a passkey registered with Chromium’s virtual authenticator signs in without a password, and as the second step', async () => {
    const { browser } = running;
    const words = WORDS.en;
    const labels = SIGN_UP_LABELS.en;
    const email = 'tf-en@example.com';
    const page = await newPage(browser, 'en');
    const context = page.context();
    await virtualAuthenticator(context, page);
    await signUpAndVerify(page, localUrl(), { email, password: PASSWORD, labels });
    await password(page, email, labels);
    await page.waitForURL((url) => url.pathname === '/');
    await chooseSuggestedTimezone(page);

    const { secret } = await setUpTotp(page, words, 'en');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByLabel(words.passkeyName).fill('Test laptop');
    await page.getByRole('button', { name: words.addPasskey }).click();
    await expect.poll(() => page.getByTestId('passkeys-panel').textContent()).toContain(words.passkeyAdded);
    expect(await page.getByTestId('passkey-row').textContent()).toContain('Test laptop');
    await checkSecurityScreens(page, 'en');

    // Passwordless: signed out (and the browser's cookies gone), the passkey alone signs in.
    await context.clearCookies();
    await page.goto(at('/signin'));
    await page.getByRole('button', { name: words.withPasskey }).click();
    await page.waitForURL((url) => url.pathname === '/');

    // After a password the second step offers the code and the passkey; the passkey completes it.
    await context.clearCookies();
    await password(page, email, labels);
    const step = page.getByTestId('second-step');
    await expect.poll(() => step.count()).toBe(1);
    expect(await step.getByLabel(words.code).count()).toBe(1);
    await expectNoSeriousAxeViolations(page);
    await shoot(page, '37-signin-code-en-1280');
    await step.getByRole('button', { name: words.usePasskey }).click();
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto(at('/security'));
    await expect.poll(() => page.getByTestId('passkey-row').textContent()).toMatch(/Last used/);
    // The code still works too: TOTP stays on beside the passkey.
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await context.close();
  });
});
