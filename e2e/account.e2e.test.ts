import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { linkFromMailbox } from './mailbox.ts';
import {
  chooseSuggestedTimezone,
  expectNoSeriousAxeViolations,
  expectNoSidewaysOverflow,
  NARROW,
  openNavigation,
  openPage,
  productAndBrowser,
  screenshot,
  WIDE,
} from './steps.ts';

const running = productAndBrowser();

const pageUrl = (path: string) => new URL(path, running.product.url).href;
const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

async function signUp(page: Page, email: string, password: string, labels: SignUpLabels) {
  await page.goto(pageUrl('/signup'));
  await expect.poll(() => heading(page)).toBe(labels.heading);
  await page.getByLabel(labels.email).fill(email);
  await page.getByLabel(labels.password, { exact: true }).fill(password);
  await page.getByRole('radio', { name: labels.plan }).check();
}

type SignUpLabels = { heading: string; email: string; password: string; plan: string };

type Catalogue = { [key: string]: string | Catalogue };

/** The SPA's whole catalogue in a language: the shell's file and every screen's, as the SPA assembles them. */
async function catalogue(language: 'ja' | 'en'): Promise<Catalogue> {
  const assembled = await import('../web/src/i18n/catalogue.ts');
  return assembled[language] as unknown as Catalogue;
}

function keysOf(tree: Catalogue, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

const ACCOUNT_PATHS = /^\/api\/(signup|signin|signout|verify|reset_pass|account|support|req_support)/;

describe('account screens against the running product', () => {
  it('has a Japanese and an English message for every error code the account routes document', async () => {
    type Operation = { responses: Record<string, { description: string }> };
    const document = (await (await fetch(pageUrl('/api/openapi.json'))).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const codes = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths)) {
      if (!ACCOUNT_PATHS.test(path)) continue;
      for (const operation of Object.values(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (status.startsWith('2') || status.startsWith('3')) continue;
          const listed = response.description.split(': ')[1] ?? '';
          for (const code of listed.split(', ')) codes.add(code);
        }
      }
    }
    expect(codes.size).toBeGreaterThan(20);
    const [ja, en] = await Promise.all([catalogue('ja'), catalogue('en')]);
    // In both languages; their parity as a whole, plural forms included, is web/src/i18n/catalogue.test.ts's.
    for (const keys of [keysOf(ja), keysOf(en)]) {
      const missing = [...codes].map((code) => `errors.${code}`).filter((key) => !keys.includes(key));
      expect(missing).toEqual([]);
    }
  });

  it('signs up, verifies from the mailbox, signs in, edits the account and signs out — Japanese, 1280 px', async () => {
    const page = await openPage(running.browser, 'ja-JP', WIDE);
    const email = 'hanako@example.com';
    const password = 'mimamori-pass-1';
    await signUp(page, email, password, {
      heading: '新規登録',
      email: 'メールアドレス',
      password: 'パスワード',
      plan: 'ベーシック25 25サイト',
    });

    // Submitting without agreeing to the terms is refused on the spot, and focus goes to the box.
    await page.getByRole('button', { name: '無料で登録する' }).click();
    await expect.poll(() => page.getByText('利用規約への同意が必要です。').count()).toBe(1);
    const agree = page.getByRole('checkbox', { name: '利用規約に同意する' });
    expect(await agree.getAttribute('aria-invalid')).toBe('true');
    expect(await agree.evaluate((element) => element === document.activeElement)).toBe(true);
    await agree.check();
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, 'signup-wide-ja');

    await page.getByRole('button', { name: '無料で登録する' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'メールを確認してください' }).count()).toBe(1);
    expect(await page.getByRole('status').textContent()).toContain(email);

    await page.goto(pageUrl(await linkFromMailbox(running.product.url, email, '/verify')));
    await expect.poll(() => page.getByRole('status').textContent()).toBe('メールアドレスを確認しました。');
    await page.getByRole('link', { name: 'ログインへ進む' }).click();
    await page.waitForURL((url) => url.pathname === '/signin');

    await page.getByLabel('メールアドレス').fill(email);
    await page.getByLabel('パスワード').fill('not-the-password');
    await page.getByRole('button', { name: 'ログイン', exact: true }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('メールアドレスまたはパスワードが一致しません。');
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, 'signin-wide-ja');

    await page.getByLabel('パスワード').fill(password);
    await page.getByRole('button', { name: 'ログイン', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await chooseSuggestedTimezone(page);

    await page.getByRole('navigation').getByRole('link', { name: 'アカウント' }).click();
    await expect.poll(() => page.getByTestId('account-email').textContent()).toBe(email);
    await expect.poll(() => page.locator('#account-timezone option').count()).toBeGreaterThan(100);
    expect(await page.getByTestId('discord-state').textContent()).toBe('未設定');
    // The plan picked from the sign-up table is the trial's plan.
    expect(await page.getByTestId('account-plan').textContent()).toMatch(/^ベーシック25( |$)/);
    await expectNoSeriousAxeViolations(page);
    await expectNoSidewaysOverflow(page);
    await screenshot(page, 'account-wide-ja');
    await page.setViewportSize(NARROW);
    await expectNoSidewaysOverflow(page);
    await screenshot(page, 'account-narrow-ja');
    await page.setViewportSize(WIDE);

    await page.getByLabel('タイムゾーン').selectOption('Asia/Tokyo');
    await page.getByLabel('言語', { exact: true }).selectOption('en');
    await page.getByRole('button', { name: '保存', exact: true }).nth(1).click();
    // The saved language takes over the whole screen.
    await expect.poll(() => heading(page)).toBe('Account');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    await page.reload();
    await expect.poll(() => page.getByLabel('Time zone').inputValue()).toBe('Asia/Tokyo');
    expect(await page.getByLabel('Language', { exact: true }).inputValue()).toBe('en');

    await page.getByRole('button', { name: 'Log out' }).click();
    // Signed out, / is the landing page, with its ways to sign up.
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.locator('.landing a[href="/signup"]').count()).toBe(2);
    await page.goto(pageUrl('/account'));
    await page.waitForURL((url) => url.pathname === '/signin');
    await page.context().close();
  });

  it('signs up, resets the password from the mailbox and signs in to the account — English, 375 px', async () => {
    const page = await openPage(running.browser, 'en-US', NARROW);
    const email = 'sam@example.com';
    await signUp(page, email, 'first-password-1', {
      heading: 'Sign up',
      email: 'E-mail address',
      password: 'Password',
      plan: 'Basic 5 5 sites',
    });
    await page.getByRole('checkbox', { name: 'I agree to the terms of service' }).check();
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, 'signup-narrow-en');
    await page.getByRole('button', { name: 'Sign up for free' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Check your mail' }).count()).toBe(1);

    // Before the address is verified, signing in is refused with the reason.
    await page.goto(pageUrl('/signin'));
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('first-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not verified yet');
    // The gateway sends a failed X sign-in back with an error the page explains.
    await page.goto(pageUrl('/signin?error=x_sign_in_failed'));
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Could not sign in with X.');

    // A verification link that is not one says so.
    await page.goto(pageUrl('/verify?token=not-a-real-token'));
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('The verification URL may be invalid.');

    await page.goto(pageUrl(await linkFromMailbox(running.product.url, email, '/verify')));
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Your e-mail address has been verified.');

    await page.goto(pageUrl('/signin'));
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect.poll(() => heading(page)).toBe('Reset password');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('If the address is registered');

    const resetLink = await linkFromMailbox(running.product.url, email, '/reset_pass');
    await page.goto(pageUrl(resetLink));
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await expect
      .poll(() => page.getByText('The password is too short. Use at least 8 characters.').count())
      .toBe(1);
    await page.getByLabel('New password').fill('second-password-2');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Your password has been reset');

    // The link was used: opening it again is refused.
    await page.goto(pageUrl(resetLink));
    await page.getByLabel('New password').fill('third-password-3');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The URL is invalid or has expired.');

    // A login-required page sends the visitor to sign in and back again.
    await page.goto(pageUrl('/account'));
    await page.waitForURL((url) => url.pathname === '/signin');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('first-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('The e-mail address or password does not match.');
    await expectNoSidewaysOverflow(page);
    await screenshot(page, 'signin-narrow-en');
    await page.getByLabel('Password').fill('second-password-2');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/account');
    await expect.poll(() => page.getByTestId('account-email').textContent()).toBe(email);

    await page.getByLabel('Name', { exact: true }).fill('Sam');
    await page.getByRole('button', { name: 'Save' }).first().click();
    await expect.poll(() => page.getByText('Saved.').count()).toBe(1);
    await page.getByLabel('Address to add').fill('sam.alerts@example.com');
    // The additional addresses' own Add (the webhooks panel below has one too).
    await page
      .locator('form')
      .filter({ has: page.getByLabel('Address to add') })
      .getByRole('button', { name: 'Add', exact: true })
      .click();
    await expect.poll(() => page.getByText('sam.alerts@example.com', { exact: true }).count()).toBe(1);
    expect(await page.locator('.mail-row .badge').textContent()).toBe('Awaiting confirmation');
    await page.getByLabel('Time zone').selectOption('America/New_York');
    await page.getByRole('button', { name: 'Save' }).nth(1).click();
    await expect.poll(() => page.getByText('Saved.').count()).toBe(2);

    await expectNoSeriousAxeViolations(page);
    await expectNoSidewaysOverflow(page);
    await screenshot(page, 'account-narrow-en');

    await page.getByRole('button', { name: 'Remove sam.alerts@example.com' }).click();
    await expect.poll(() => page.getByText('No additional addresses.').count()).toBe(1);

    await openNavigation(page);
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Try it free for 2 weeks' }).count()).toBe(2);
    await page.context().close();
  });

  it('keeps the other account fields editable when the time zone list fails, and retries it', async () => {
    const page = await openPage(running.browser, 'en-US', WIDE);
    const email = 'kai@example.com';
    await signUp(page, email, 'kai-password-1', {
      heading: 'Sign up',
      email: 'E-mail address',
      password: 'Password',
      plan: 'Advanced 100 sites',
    });
    await page.getByRole('checkbox', { name: 'I agree to the terms of service' }).check();
    await page.getByRole('button', { name: 'Sign up for free' }).click();
    await page.goto(pageUrl(await linkFromMailbox(running.product.url, email, '/verify')));
    // The loading indicator is a status too: leaving before the answer could cancel the verification.
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toBe('Your e-mail address has been verified.');

    let failTimezones = true;
    await page.route('**/static/timezones.json', (route) =>
      failTimezones ? route.fulfill({ status: 503, body: 'down' }) : route.continue(),
    );
    await page.goto(pageUrl('/signin?next=%2Faccount'));
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('kai-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/account');

    await expect
      .poll(() => page.getByText('Could not get time zone information.').count(), { timeout: 15_000 })
      .toBe(1);
    // The currency is fixed by billing from sign-up on; the name stands for the other fields.
    await page.getByLabel('Name', { exact: true }).fill('Kai');
    await page.getByRole('button', { name: 'Save' }).first().click();
    await expect.poll(() => page.getByText('Saved.').count()).toBe(1);

    failTimezones = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => page.locator('#account-timezone option').count()).toBeGreaterThan(100);

    // Refusals land on their fields with the gateway's reason.
    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel('New password').fill('kai-password-2');
    await page.getByRole('button', { name: 'Change the password' }).click();
    const current = page.getByLabel('Current password');
    await expect.poll(() => current.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#account-current-password-error').textContent()).toBe(
      'The current password does not match.',
    );
    expect(await current.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.getByLabel('Webhook URL').fill('https://example.com/not-a-webhook');
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    await expect
      .poll(() => page.locator('#account-discord-url-error').textContent())
      .toContain('Enter a Discord webhook URL');
    expect(await page.getByTestId('discord-state').textContent()).toBe('Not set');
    await page.getByLabel('New e-mail address').fill('kai.new@example.com');
    await page.getByRole('button', { name: 'Change the address' }).click();
    await expect
      .poll(() =>
        page.getByText('We sent a confirmation mail to kai.new@example.com.', { exact: false }).count(),
      )
      .toBe(1);
    expect(await page.getByTestId('account-email').textContent()).toBe(email);

    // A support request from the account page, then its follow-up through the mailed link.
    await page.getByLabel('Topic').selectOption('area');
    await page.getByLabel('Details', { exact: true }).fill('The price area is not found.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect
      .poll(() => page.getByText('Your request has been received.', { exact: false }).count())
      .toBe(1);
    await page.goto(pageUrl(await linkFromMailbox(running.product.url, email, '/req_support')));
    await expect.poll(() => page.getByText('Monitoring area settings').count()).toBe(1);
    expect(await page.getByText('The price area is not found.').count()).toBe(1);
    await page.getByLabel('Additional details').fill('It is the second price on the page.');
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, 'req-support-wide-en');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toContain('We have received your additional details');

    await page.goto(pageUrl('/req_support?token=stale'));
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('This URL has expired.');

    // No Discord link on this account: the page must not claim one.
    await page.goto(pageUrl('/linecomplete'));
    await expect.poll(() => heading(page)).toBe('Chat notifications not connected');
    await screenshot(page, 'linecomplete-wide-en');
    await page.context().close();
  });
});
