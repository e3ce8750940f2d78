import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startWebhookReceiver, type WebhookReceiver } from '@mimamori/test-fixtures';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceSiteRegistration } from '../system-tests/rig/price-site.ts';
import { repoRoot } from './product.ts';
import {
  apiOf,
  expectNoSeriousAxeViolations,
  expectNoSidewaysOverflow,
  NARROW,
  openPage,
  productAndBrowser,
  SIGN_UP_LABELS,
  screenshot,
  shots,
  signedUpAndIn,
  WIDE,
} from './steps.ts';

// A customer's endpoint on this machine, let through the SSRF guard by the test-only env var;
// it verifies every delivery's signature as docs/webhooks.md tells customers to.
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
});
const running = productAndBrowser(() => ({ env: { WEBHOOK_EGRESS_ALLOW: receiver.hostPort } }));

const JA = SIGN_UP_LABELS.ja;
const EN = SIGN_UP_LABELS.en;

type Words = {
  add: string;
  url: string;
  test: string;
  delivered: string;
  forbidden: string;
  unreachable: string;
  secret: string;
};
const JA_WORDS: Words = {
  add: '追加',
  url: '送信先 URL',
  test: 'テスト送信',
  delivered: '届きました（HTTP 200）。',
  forbidden: 'この URL には送れません。',
  unreachable: 'この URL には接続できませんでした。サーバー名が見つかりません。',
  secret: '署名シークレット',
};
const EN_WORDS: Words = {
  add: 'Add',
  url: 'URL to send to',
  test: 'Send a test',
  delivered: 'Delivered (HTTP 200).',
  forbidden: 'This URL cannot be used',
  unreachable: 'This URL could not be reached: its server name was not found.',
  secret: 'Signing secret',
};

/**
 * In the panel `panel`: a forbidden address is refused under the field; a receiver's URL is added
 * and its secret shown once; a test-send shows the receiver's status and body.
 */
async function addAndTest(page: Page, panel: string, path: string, words: Words, shot: string) {
  const section = page.getByTestId(panel);
  await section.getByLabel(words.url).fill('http://169.254.169.254/latest/meta-data');
  await section.getByRole('button', { name: words.add }).click();
  await expect.poll(() => section.locator('.field-error').textContent()).toContain(words.forbidden);
  // A name that does not resolve (.invalid never does) is told as unreachable, not as not public.
  await section.getByLabel(words.url).fill('https://hooks.example.invalid/in');
  await section.getByRole('button', { name: words.add }).click();
  await expect.poll(() => section.locator('.field-error').textContent()).toContain(words.unreachable);

  await section.getByLabel(words.url).fill(`${receiver.url}${path}`);
  await section.getByRole('button', { name: words.add }).click();
  const secretBox = section.getByTestId('webhook-secret');
  await expect.poll(() => secretBox.textContent()).toContain(words.secret);
  const secret = String(await secretBox.locator('code').textContent());
  expect(secret).toMatch(/^whsec_/);
  receiver.setSecret(path, secret);

  const row = section.getByTestId('webhook-row').filter({ hasText: path });
  await row.getByRole('button', { name: words.test }).click();
  const result = row.getByTestId('webhook-test');
  await expect.poll(() => result.textContent(), { timeout: 30_000 }).toContain(words.delivered);
  expect(await result.locator('pre').textContent()).toBe('{"received":true}');
  const [delivery] = await receiver.waitFor(path, 1);
  expect(delivery?.verified).toBe(true);
  expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({ type: 'test', test: true });

  await section.scrollIntoViewIfNeeded();
  await expectNoSidewaysOverflow(page);
  await expectNoSeriousAxeViolations(page);
  await screenshot(page, shot);
  // The panel alone, at the size it is read.
  await section.screenshot({ path: join(shots, `${shot}-panel.png`) });
}

describe('webhooks against the running product', () => {
  it('documents every webhook route and has a Japanese and an English message for each refusal code', async () => {
    type Operation = { responses: Record<string, { description: string }> };
    const document = (await (await fetch(new URL('/api/openapi.json', running.product.url))).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const paths = Object.keys(document.paths).filter((path) => path.startsWith('/api/webhooks'));
    expect(paths.sort()).toEqual([
      '/api/webhooks',
      '/api/webhooks/delete',
      '/api/webhooks/rotate',
      '/api/webhooks/test',
    ]);
    const codes = new Set<string>();
    for (const path of paths) {
      for (const operation of Object.values(document.paths[path] ?? {})) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (status.startsWith('2')) continue;
          for (const code of (response.description.split(': ')[1] ?? '').split(', ')) codes.add(code);
        }
      }
    }
    expect(codes).toContain('webhook_address_forbidden');
    expect(codes).toContain('webhook_address_unreachable');
    for (const language of ['ja', 'en']) {
      const read = async (file: string) =>
        JSON.parse(await readFile(join(repoRoot, 'web/src/i18n', file), 'utf8')) as Record<string, unknown>;
      const core = (await read(`${language}.json`)).errors as Record<string, string>;
      const known = { ...core, ...(await read(`features/errors-webhook.${language}.json`)) };
      expect(
        [...codes].filter((code) => !(code in known)),
        language,
      ).toEqual([]);
    }
  });

  it('adds an account webhook, refuses a forbidden address and shows the test-send answer — Japanese, 1280 px', async () => {
    const page = await openPage(running.browser, 'ja-JP', WIDE);
    await signedUpAndIn(page, running.product.url, {
      email: 'webhook-ja@example.com',
      password: 'webhook-pass-1',
      labels: JA,
    });
    await page.goto(new URL('/account', running.product.url).href);
    await addAndTest(page, 'account-webhooks', '/hooks/account', JA_WORDS, 'webhooks-account-ja-1280');
    await page.setViewportSize(NARROW);
    await expectNoSidewaysOverflow(page);
    await screenshot(page, 'webhooks-account-ja-375');
    await page
      .getByTestId('account-webhooks')
      .screenshot({ path: join(shots, 'webhooks-account-ja-375-panel.png') });
    await page.context().close();
  }, 240_000);

  it('adds a site’s own webhook on its detail page and test-sends it — English, 375 px', async () => {
    const page = await openPage(running.browser, 'en-US', NARROW);
    await signedUpAndIn(page, running.product.url, {
      email: 'webhook-en@example.com',
      password: 'webhook-pass-1',
      labels: EN,
    });
    const api = apiOf(page.context(), running.product.url);
    const registered = await api.post('/api/v2/target/register', {
      ...priceSiteRegistration('Price page', 'https://shop.example.com/price'),
      interval_minutes: 60,
      screenshot: false,
      chat_notify: 'none',
      rules: { combine: 'or', groups: [] },
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const id = String((registered.body as { target_v2_id: string }).target_v2_id);
    await page.goto(new URL(`/target2?id=${id}`, running.product.url).href);
    await addAndTest(page, 'site-webhooks', '/hooks/site', EN_WORDS, 'webhooks-site-en-375');
    const listed = await api.get('/api/webhooks');
    expect((listed.body as { webhooks: { target_id: string }[] }).webhooks).toEqual([
      expect.objectContaining({ target_id: id }),
    ]);
    await page.setViewportSize(WIDE);
    await expectNoSidewaysOverflow(page);
    await screenshot(page, 'webhooks-site-en-1280');
    await page
      .getByTestId('site-webhooks')
      .screenshot({ path: join(shots, 'webhooks-site-en-1280-panel.png') });
    await page.context().close();
  }, 240_000);

  it('tries webhooks without a server: the suggested local receiver, its page checking each signature — Japanese, 1280 px', async () => {
    const page = await openPage(running.browser, 'ja-JP', WIDE);
    await signedUpAndIn(page, running.product.url, {
      email: 'webhook-try@example.com',
      password: 'webhook-pass-1',
      labels: JA,
    });
    await page.goto(new URL('/account', running.product.url).href);
    const section = page.getByTestId('account-webhooks');
    const suggestion = section.getByTestId('webhook-try');
    const receiverUrl = String(await suggestion.locator('code').textContent());
    expect(receiverUrl).toBe(new URL('/dev/webhooks/in/demo', running.product.url).href);
    await suggestion.getByRole('button', { name: 'この URL を使う' }).click();
    expect(await section.getByLabel(JA_WORDS.url).inputValue()).toBe(receiverUrl);
    await section.getByRole('button', { name: JA_WORDS.add }).click();
    const secret = String(await section.getByTestId('webhook-secret').locator('code').textContent());
    expect(secret).toMatch(/^whsec_/);
    const row = section.getByTestId('webhook-row').filter({ hasText: '/dev/webhooks/in/demo' });
    await row.getByRole('button', { name: JA_WORDS.test }).click();
    await expect
      .poll(() => row.getByTestId('webhook-test').textContent(), { timeout: 30_000 })
      .toContain(JA_WORDS.delivered);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, 'webhooks-try-ja-1280');

    // The receiver's page: the delivery as received, its signature checked once the secret is pasted.
    const receiverPage = await page.context().newPage();
    await receiverPage.goto(new URL('/dev/webhooks', running.product.url).href);
    const delivery = receiverPage.locator('article.delivery').first();
    expect(await delivery.getAttribute('data-verdict')).toBe('none');
    expect(await delivery.textContent()).toContain('"type": "test"');
    const demoForm = receiverPage.locator('form').filter({ hasText: receiverUrl });
    await demoForm.getByLabel(/Signing secret/).fill(secret);
    await demoForm.getByRole('button', { name: 'Keep' }).click();
    await expect.poll(() => delivery.getAttribute('data-verdict')).toBe('ok');
    expect(await delivery.textContent()).toContain('Signature checked: valid');
    // Another loopback URL stays refused: only the product's own receivers are let through.
    await section.getByLabel(JA_WORDS.url).fill(new URL('/api/user_info', running.product.url).href);
    await section.getByRole('button', { name: JA_WORDS.add }).click();
    await expect.poll(() => section.locator('.field-error').textContent()).toContain(JA_WORDS.forbidden);
    // The receiver's page is a tool page with a script-free CSP, where axe cannot be injected.
    await screenshot(receiverPage, 'webhooks-receiver-page-1280');
    await page.context().close();
  }, 240_000);
});
