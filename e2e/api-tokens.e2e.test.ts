import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
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

const running = productAndBrowser();

const JA = SIGN_UP_LABELS.ja;
const EN = SIGN_UP_LABELS.en;

type Words = {
  name: string;
  needName: string;
  change: string;
  expiry: string;
  create: string;
  secretTitle: string;
  copy: string;
  copied: string;
  saved: string;
  neverUsed: string;
  lastUsed: string;
  revoke: string;
  confirmRevoke: string;
  none: string;
  atom: string;
};
const JA_WORDS: Words = {
  name: 'トークン名',
  needName: '作成するには名前を入力してください。',
  change: '変更',
  expiry: '有効期間',
  create: 'トークンを作成',
  secretTitle: '新しいトークン「CI スクリプト」',
  copy: 'コピー',
  copied: 'コピーしました',
  saved: '保存しました',
  neverUsed: '未使用',
  lastUsed: '最終使用',
  revoke: 'CI スクリプトを無効にする',
  confirmRevoke: '今すぐ無効にする',
  none: 'トークンはまだありません。',
  atom: 'すべてのサイト（Atom）',
};
const EN_WORDS: Words = {
  name: 'Token name',
  needName: 'Enter a name to create the token.',
  change: 'Change',
  expiry: 'Stops working after',
  create: 'Create token',
  secretTitle: 'Your new token "CI スクリプト"',
  copy: 'Copy',
  copied: 'Copied',
  saved: 'I have saved it',
  neverUsed: 'never used',
  lastUsed: 'last used',
  revoke: 'Revoke CI スクリプト',
  confirmRevoke: 'Revoke it now',
  none: 'No tokens yet.',
  atom: 'Every site (Atom)',
};

/** After a resize the screens lay themselves out again (the narrow-window hook re-renders them). */
async function resizedTo(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth))
    .toBe(true);
}

/** A request as a script makes it: the bearer token alone, no cookie, no CSRF header. */
function withToken(path: string, token: string, init: RequestInit = {}) {
  return fetch(new URL(path, running.product.url), {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
}

/**
 * On the account page: the create button says why it waits for a name, a read-and-change token is
 * made and shown once, a script lists and registers sites with it, the list shows its last use,
 * and once revoked from the page the token is refused.
 */
async function makeUseAndRevoke(page: Page, words: Words, shot: string) {
  await page.goto(new URL('/account', running.product.url).href);
  const panel = page.getByTestId('api-tokens');
  await expect.poll(() => panel.textContent()).toContain(words.none);
  const create = panel.getByRole('button', { name: words.create });
  expect(await create.isDisabled()).toBe(true);
  expect(await panel.locator('#api-token-not-ready').textContent()).toBe(words.needName);

  await panel.getByLabel(words.name).fill('CI スクリプト');
  await panel.getByRole('checkbox', { name: new RegExp(words.change) }).check();
  await panel.getByLabel(words.expiry).selectOption('90');
  expect(await create.isDisabled()).toBe(false);
  await create.click();
  const secretBox = panel.getByTestId('api-token-secret');
  await expect.poll(() => secretBox.textContent()).toContain(words.secretTitle);
  const token = String(await secretBox.locator('code').textContent());
  expect(token).toMatch(/^mmr_[\w-]{43}$/);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await secretBox.getByRole('button', { name: words.copy }).click();
  await expect.poll(() => secretBox.textContent()).toContain(words.copied);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

  await panel.scrollIntoViewIfNeeded();
  await expectNoSidewaysOverflow(page);
  await expectNoSeriousAxeViolations(page);
  await screenshot(page, `${shot}-secret`);
  await panel.screenshot({ path: join(shots, `${shot}-secret-panel.png`) });

  await secretBox.getByRole('button', { name: words.saved }).click();
  const row = panel.getByTestId('api-token-row').filter({ hasText: 'CI スクリプト' });
  expect(await row.textContent()).toContain(words.neverUsed);

  const listed = await withToken('/api/v2/targets', token);
  expect(listed.status).toBe(200);
  expect(await listed.json()).toMatchObject({ targets: [] });
  const registered = await withToken('/api/v2/target/register', token, {
    method: 'POST',
    body: JSON.stringify({
      label: 'Price page',
      url: 'https://shop.example.com/price',
      interval_minutes: 60,
      areas: [{ area_id: 'price', label: 'Price', locator: { selector: '#price', selector_type: 'css' } }],
    }),
  });
  expect(registered.status, await registered.clone().text()).toBe(201);
  const siteId = String(((await registered.json()) as { target_v2_id: string }).target_v2_id);

  await page.reload();
  await expect.poll(() => row.textContent()).toContain(words.lastUsed);
  const feeds = page.getByTestId('feeds');
  await expect.poll(() => feeds.textContent()).toContain(words.atom);
  const atomUrl = String(await feeds.getByTestId('feed-atom').locator('code').textContent());
  expect(atomUrl).toMatch(/\/feeds\/[\w-]{32}\/atom\.xml$/);
  expect((await fetch(atomUrl)).status).toBe(200);
  await expectNoSidewaysOverflow(page);
  await expectNoSeriousAxeViolations(page);
  await screenshot(page, `${shot}-listed`);
  await panel.screenshot({ path: join(shots, `${shot}-listed-panel.png`) });
  await feeds.screenshot({ path: join(shots, `${shot}-feeds-panel.png`) });

  await row.getByRole('button', { name: words.revoke }).click();
  await row.getByRole('button', { name: words.confirmRevoke }).click();
  await expect.poll(() => panel.textContent()).toContain(words.none);
  const refused = await withToken('/api/v2/targets', token);
  expect(refused.status).toBe(401);
  expect(await refused.json()).toMatchObject({ error: { code: 'unauthenticated' } });

  // The site the script registered shows its own feed on its page.
  await page.goto(new URL(`/target2?id=${siteId}`, running.product.url).href);
  const siteFeed = page.getByTestId('site-feed');
  await expect.poll(() => siteFeed.getByTestId('site-feed-atom').locator('code').count()).toBe(1);
  const siteAtom = String(await siteFeed.getByTestId('site-feed-atom').locator('code').textContent());
  expect(siteAtom).toBe(atomUrl.replace('atom.xml', `sites/${siteId}/atom.xml`));
  const siteRss = String(await siteFeed.getByTestId('site-feed-rss').locator('code').textContent());
  for (const url of [siteAtom, siteRss]) expect((await fetch(url)).status, url).toBe(200);
  await siteFeed.scrollIntoViewIfNeeded();
  await expectNoSidewaysOverflow(page);
  await expectNoSeriousAxeViolations(page);
  await siteFeed.screenshot({ path: join(shots, `${shot}-site-feed-panel.png`) });
}

describe('API tokens against the running product', () => {
  it('documents the token and feed routes and has a Japanese and an English message for each refusal code', async () => {
    type Operation = { responses: Record<string, { description: string }> };
    const document = (await (await fetch(new URL('/api/openapi.json', running.product.url))).json()) as {
      paths: Record<string, Record<string, Operation>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['bearer', 'csrf', 'session']);
    const paths = Object.keys(document.paths).filter((path) => /^\/api\/(tokens|feeds)/.test(path));
    expect(paths.sort()).toEqual(['/api/feeds', '/api/feeds/rotate', '/api/tokens', '/api/tokens/revoke']);
    const codes = new Set<string>(['insufficient_scope', 'feed_not_found']);
    for (const path of paths) {
      for (const operation of Object.values(document.paths[path] ?? {})) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (status.startsWith('2')) continue;
          for (const code of (response.description.split(': ')[1] ?? '').split(', ')) codes.add(code);
        }
      }
    }
    expect(codes).toContain('api_token_name_invalid');
    for (const language of ['ja', 'en']) {
      const read = async (file: string) =>
        JSON.parse(await readFile(join(repoRoot, 'web/src/i18n', file), 'utf8')) as Record<string, unknown>;
      const core = (await read(`${language}.json`)).errors as Record<string, string>;
      const known = { ...core, ...(await read(`features/errors-api-access.${language}.json`)) };
      expect(
        [...codes].filter((code) => !(code in known)),
        language,
      ).toEqual([]);
    }
    // Where people look for a feed first is not the web app.
    for (const path of ['/rss', '/feed']) {
      const answer = await fetch(new URL(path, running.product.url));
      expect(answer.status, path).toBe(404);
      expect(await answer.text(), path).not.toContain('<div id="root">');
    }
  });

  it('makes a token on the account page, uses it from a script, revokes it — Japanese, 1280 then 375 px', async () => {
    const page = await openPage(running.browser, 'ja-JP', WIDE);
    await signedUpAndIn(page, running.product.url, {
      email: 'tokens-ja@example.com',
      password: 'tokens-pass-1',
      labels: JA,
    });
    await makeUseAndRevoke(page, JA_WORDS, 'api-tokens-ja-1280');
    await resizedTo(page, NARROW);
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await page
      .getByTestId('site-feed')
      .screenshot({ path: join(shots, 'api-tokens-ja-375-site-feed-panel.png') });
    await page.goto(new URL('/account', running.product.url).href);
    await expect.poll(() => page.getByTestId('api-tokens').textContent()).toContain(JA_WORDS.none);
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await page.getByTestId('api-tokens').screenshot({ path: join(shots, 'api-tokens-ja-375-panel.png') });
    await page.getByTestId('feeds').screenshot({ path: join(shots, 'api-tokens-ja-375-feeds-panel.png') });
    await page.context().close();
  }, 240_000);

  it('makes a token on the account page, uses it from a script, revokes it — English, 375 then 1280 px', async () => {
    const page = await openPage(running.browser, 'en-US', NARROW);
    await signedUpAndIn(page, running.product.url, {
      email: 'tokens-en@example.com',
      password: 'tokens-pass-1',
      labels: EN,
    });
    await makeUseAndRevoke(page, EN_WORDS, 'api-tokens-en-375');
    // The token is refused; the session that made it still works.
    const api = apiOf(page.context(), running.product.url);
    expect((await api.get('/api/tokens')).status).toBe(200);
    await resizedTo(page, WIDE);
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await page
      .getByTestId('site-feed')
      .screenshot({ path: join(shots, 'api-tokens-en-1280-site-feed-panel.png') });
    await page.goto(new URL('/account', running.product.url).href);
    await expect.poll(() => page.getByTestId('api-tokens').textContent()).toContain(EN_WORDS.none);
    await expectNoSidewaysOverflow(page);
    await page.getByTestId('api-tokens').screenshot({ path: join(shots, 'api-tokens-en-1280-panel.png') });
    await page.context().close();
  }, 240_000);
});
