import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './chromium.ts';
import { type RunningProduct, startProduct } from './product.ts';
import {
  expectNoSeriousAxeViolations,
  expectNoSidewaysOverflow,
  NARROW,
  SIGN_UP_LABELS,
  type SignUpLabels,
  screenshot,
  signedUpAndIn,
  WIDE,
} from './steps.ts';

/** The price the shop shows now; the redo-registration step changes it. */
let price = '¥1,280';

/** The site being registered: a small shop page served by the test on loopback. */
const shopPage = (consent: boolean) => `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>Tea shop</title>
<style>body{font-family:sans-serif;margin:24px} .card{border:1px solid #ccc;padding:16px;width:360px;margin-bottom:24px}
#price{font-size:28px;margin:8px 0} #stock{margin:0}</style></head>
<body>
<h1>Tea shop</h1>
<div class="card" id="card"><h2 id="name">Sencha 100g</h2><p id="price">${price}</p></div>
<div class="card" id="stock-card"><p id="stock">In stock: 12</p></div>
<button id="more" type="button" onclick="document.getElementById('offer').hidden = false">More</button>
<p id="offer" hidden>Limited offer</p>
<button id="login" type="button" onclick="document.cookie = 'session=1; path=/'">Log in</button>
<iframe id="news" name="news" title="News" src="/frame" width="360" height="60"></iframe>
<p id="consent">${consent ? 'Consent given' : 'No consent yet'}</p>
<p id="footer">Prices include tax.</p>
</body></html>`;

let product: RunningProduct;
let browser: Browser;
let shop: Server;
let shopBase: string;
let shopUrl: string;

beforeAll(async () => {
  shop = createServer((request, response) => {
    if (request.url === '/frame') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        '<!doctype html><html lang="en"><body><p id="headline">Frame news: spring tea</p></body></html>',
      );
      return;
    }
    if (request.url === '/missing') {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(shopPage(/(?:^|; )consent=yes(?:;|$)/.test(request.headers.cookie ?? '')));
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  const { port } = shop.address() as AddressInfo;
  shopBase = `http://127.0.0.1:${port}`;
  shopUrl = `${shopBase}/item`;
  // The crawler refuses loopback addresses unless the test allows its fixture server.
  [product, browser] = await Promise.all([
    startProduct({ env: { CRAWLER_ALLOW: `127.0.0.1:${port}` } }),
    launchChromium(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
  await new Promise((resolve) => shop?.close(resolve));
});

/** Opening a page in the crawler's browser may take up to about a minute (docs/product.md#checks). */
const PAGE_LOAD = { timeout: 90_000 };
/**
 * Each area picked, and each change of its options, reads the area again from the live page in
 * the crawler's browser: in CI, beside two other files' browsers, a drag's reading outlasted 10 s.
 */
const READING = { timeout: 30_000 };

const pageUrl = (path: string) => new URL(path, product.url).href;

/** A finished wizard step: no sideways scrolling, nothing serious for axe, and a screenshot. */
async function check(page: Page, name: string) {
  await expectNoSidewaysOverflow(page);
  await expectNoSeriousAxeViolations(page);
  await screenshot(page, name);
}

async function signedInUser(page: Page, email: string, labels: SignUpLabels) {
  await signedUpAndIn(page, product.url, { email, password: 'wizard-pass-1', labels });
}

const stepHeading = (page: Page) => page.locator('h2.step-title').textContent();

/** Reads the API as the signed-in page does, with its cookie. */
function apiGet<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (url) => (await fetch(url)).json(), path) as Promise<T>;
}

type TargetRow = { id: string; label: string; url: string; valid: boolean; interval_minutes: number };
type StoredTarget = {
  settings: {
    label: string;
    url: string;
    interval_minutes: number;
    fetch_mode: string;
    has_cookies: boolean;
    viewport: { width: number; height: number } | null;
    login: unknown;
    actions: unknown[];
    areas: {
      area_id: string;
      label: string;
      content: string;
      locator: { selector: string };
      options: Record<string, unknown>;
    }[];
    rules: { combine: string; groups: { combine: string; conditions: Record<string, string>[] }[] } | null;
  };
};

describe('site registration wizard against the running product', () => {
  it('registers a page by clicking its price, refuses an area inside it and a 0-minute interval, then edits it — Japanese, 1280 px (/sr2c)', async () => {
    const page = await (await browser.newContext({ locale: 'ja-JP', viewport: WIDE })).newPage();
    await signedInUser(page, 'wizard-ja@example.com', {
      ...SIGN_UP_LABELS.ja,
      plan: 'ベーシック25 25サイト',
    });

    await page.goto(pageUrl('/sr2c'));
    await expect.poll(() => stepHeading(page)).toBe('ステップ 1/5: URLの入力');
    // A URL that is not one is refused before anything is opened.
    await page.getByLabel('URL', { exact: true }).fill('shop.example');
    await page.getByRole('button', { name: '次へ' }).click();
    await expect.poll(() => page.getByText('URLが正しくありません。', { exact: false }).count()).toBe(1);
    expect(
      await page.getByLabel('URL', { exact: true }).evaluate((input) => input === document.activeElement),
    ).toBe(true);
    // A URL past its limit says the limit, at this step.
    await page.getByLabel('URL', { exact: true }).fill(`https://shop.example/${'a'.repeat(5_000)}`);
    await page.getByRole('button', { name: '次へ' }).click();
    await expect
      .poll(() => page.locator('#wizard-url-error').textContent())
      .toBe('URLが長すぎます。4,000文字以内で入力してください。');
    await page.getByLabel('URL', { exact: true }).fill(shopUrl);
    await page.getByLabel('ユーザーエージェント').selectOption('chrome');
    // A cookie the site needs is sent with the preview and stored with the site.
    await page.getByText('詳細設定 (画面サイズ・クッキー)').click();
    await page.getByLabel('クッキー', { exact: true }).fill('consent=yes');
    await check(page, 'wizard-url-1280-ja');
    await page.getByRole('button', { name: '次へ' }).click();

    await expect.poll(() => stepHeading(page), PAGE_LOAD).toBe('ステップ 2/5: サイト表示の確認');
    expect(await page.getByRole('img', { name: `${shopUrl} のスクリーンショット` }).count()).toBe(1);
    await check(page, 'wizard-display-1280-ja');
    await page.getByRole('button', { name: '次へ' }).click();
    await expect.poll(() => stepHeading(page)).toBe('ログイン設定 (任意)');
    await page.getByRole('button', { name: '次へ' }).click();
    await expect.poll(() => stepHeading(page)).toBe('アクション設定 (任意)');
    await page.getByRole('button', { name: '次へ' }).click();
    await expect.poll(() => stepHeading(page)).toBe('ステップ 3/5: 監視エリアの指定');

    // Next without an area is refused.
    await page.getByRole('button', { name: '次へ' }).click();
    await expect.poll(() => page.getByText('監視エリアを1つ以上指定してください。').count()).toBe(1);

    expect(await page.getByRole('button', { name: 'Consent given', exact: true }).count()).toBe(1);
    // The price is picked by clicking it on the screenshot.
    await page.getByRole('button', { name: '¥1,280', exact: true }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'エリアを追加しました。' }).count(), READING)
      .toBe(1);
    // Named after the heading of the price's card, not after the price, which changes.
    expect(await page.locator('.area-row-label').allTextContents()).toEqual(['Sencha 100g']);
    // Clicking inside the designated price again is refused.
    await page.getByRole('button', { name: '¥1,280', exact: true }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('すでに指定したエリア「Sencha 100g」の内側は選べません。別の場所を選んでください。');

    // A drag around the stock line picks its card; deselecting takes it away again. In CI, beside
    // two other files' browsers, about one run in three lost the drag (no area, no message; the
    // cause is not found yet): a drag that brought nothing and left nothing reading is made again,
    // with the line measured anew, three times at most.
    const areaRows = page.locator('.area-row');
    const reading = page.getByRole('status').filter({ hasText: 'エリアを読み取っています' });
    for (let attempt = 1; attempt <= 3 && (await areaRows.count()) < 2; attempt++) {
      const stock = await page
        .getByRole('button', { name: 'In stock: 12', exact: true })
        .last()
        .boundingBox();
      if (!stock) throw new Error('the stock line is not on the screenshot');
      await page.mouse.move(stock.x - 2, stock.y - 2);
      await page.mouse.down();
      await page.mouse.move(stock.x + stock.width / 2, stock.y + stock.height / 2, { steps: 4 });
      await page.mouse.move(stock.x + stock.width + 2, stock.y + stock.height + 2, { steps: 4 });
      await page.mouse.up();
      await expect
        .poll(async () => (await areaRows.count()) === 2 || (await reading.count()) === 0, READING)
        .toBe(true);
      await expect
        .poll(() => areaRows.count(), { timeout: 3_000 })
        .toBe(2)
        .catch(() => undefined);
    }
    await expect
      .poll(() => areaRows.count(), {
        ...READING,
        message: `the stock line's card; the wizard said ${await page.locator('.form-message').allTextContents()}`,
      })
      .toBe(2);
    await check(page, 'wizard-areas-1280-ja');
    const second = (await page.locator('.area-row-label').allTextContents())[1] ?? '';
    await page.getByRole('button', { name: `「${second}」の指定を解除` }).click();
    await expect.poll(() => page.locator('.area-row').count()).toBe(1);

    await page.getByRole('button', { name: '次へ' }).click();
    await expect.poll(() => stepHeading(page)).toBe('ステップ 4/5: エリア内容の確認');
    // The content is shown as checks will compare it, read again as the options change.
    const compared = page.getByLabel('比較される内容 (オプション適用後)');
    await expect.poll(() => compared.inputValue(), READING).toBe('¥1,280');
    await page.getByRole('checkbox', { name: '数字を除外' }).check();
    await expect.poll(() => compared.inputValue(), READING).toBe('¥');
    await page.getByLabel('除外する語句').fill('¥');
    await expect
      .poll(
        () =>
          page
            .getByText('エリアの内容が空です。エリアを広げるか、「タグを除去」のチェックを外してください。')
            .count(),
        READING,
      )
      .toBe(1);
    await page.getByLabel('除外する語句').fill('');
    await page.getByRole('checkbox', { name: '数字を除外' }).uncheck();
    await page.getByLabel('除外する正規表現 (Python形式)').fill('(?<=a)b');
    // A pattern RE2 cannot run (a look-behind) is refused at once, on the field.
    await expect
      .poll(() => page.getByLabel('除外する正規表現 (Python形式)').getAttribute('aria-invalid'), READING)
      .toBe('true');
    await page.getByLabel('除外する正規表現 (Python形式)').fill('');
    await expect
      .poll(() => page.getByLabel('除外する正規表現 (Python形式)').getAttribute('aria-invalid'), READING)
      .toBeNull();
    await expect.poll(() => compared.inputValue(), READING).toBe('¥1,280');
    await page.getByLabel('エリア名').fill('煎茶の価格');
    await page.getByRole('checkbox', { name: '日付を除外' }).check();
    await check(page, 'wizard-content-1280-ja');
    // The account's defaults arrive after the person typed (a slow connection, or a busy CI
    // machine): what they typed stays. The step's account request is held until then.
    let releaseAccount = () => {};
    const accountHeld = new Promise<void>((resolve) => {
      releaseAccount = resolve;
    });
    await page.route('**/api/account', async (route) => {
      await accountHeld;
      await route.continue();
    });
    await page.getByRole('button', { name: '次へ' }).click();

    await expect.poll(() => stepHeading(page)).toBe('ステップ 5/5: 通知設定');
    // Login and actions are behind the user once the areas are registered.
    expect(
      await page.getByRole('navigation', { name: '登録の手順' }).getByRole('button').allTextContents(),
    ).toEqual(['1. URLの入力', '2. サイト表示の確認', '3. 監視エリアの指定', '4. エリア内容の確認']);
    await page.getByLabel('ラベル', { exact: true }).fill('お茶屋さん');
    await page.getByLabel('チェック間隔 (分)').fill('0');
    const accountRead = page.waitForResponse('**/api/account');
    releaseAccount();
    await accountRead;
    await page.unroute('**/api/account');
    // The defaults have applied (screenshots on, as the plan has room) and left the interval typed.
    await expect.poll(() => page.getByLabel('スクリーンショットを添付').isChecked()).toBe(true);
    expect(await page.getByLabel('チェック間隔 (分)').inputValue()).toBe('0');
    await page.getByRole('button', { name: '登録する' }).click();
    await expect
      .poll(() => page.locator('#wizard-interval-error').textContent())
      .toBe('1分以上で指定してください。');
    expect(
      await page.getByLabel('チェック間隔 (分)').evaluate((input) => input === document.activeElement),
    ).toBe(true);
    await page.getByRole('button', { name: '1時間' }).click();
    expect(await page.getByLabel('チェック間隔 (分)').inputValue()).toBe('60');
    // The plan has screenshot room, so pictures start on (docs/product.md#wizard); this site goes
    // without, so its cheap HTTP reading can be chosen below.
    const pictures = page.getByLabel('スクリーンショットを添付');
    expect(await pictures.isChecked()).toBe(true);
    await pictures.uncheck();
    // Basic 25 runs hourly sites in its 10-minute slots: there is room, so no warning.
    expect(await page.getByText('監視枠', { exact: false }).count()).toBe(0);

    await page.getByRole('button', { name: 'グループを追加' }).click();
    await page.getByLabel('条件', { exact: true }).selectOption('decrease');
    // Numeric conditions read the full text only.
    expect(await page.getByLabel('対象').locator('option').allTextContents()).toEqual(['全体']);
    await page.getByLabel('値', { exact: true }).fill('100');
    await page.getByRole('button', { name: 'グループを追加' }).click();
    expect(await page.locator('.rule-group').count()).toBe(2);
    await page.getByRole('button', { name: '条件 1 を削除' }).nth(1).click();
    // An area a notification rule uses cannot be deselected.
    const steps = page.getByRole('navigation', { name: '登録の手順' });
    await steps.getByRole('button', { name: '3. 監視エリアの指定' }).click();
    await page.getByRole('button', { name: '「煎茶の価格」の指定を解除' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('指定を解除できませんでした。通知条件で使っているエリアは、先に条件を削除してください。');
    expect(await page.locator('.area-row').count()).toBe(1);
    await steps.getByRole('button', { name: '5. 通知設定' }).click();
    await expect.poll(() => stepHeading(page)).toBe('ステップ 5/5: 通知設定');
    // A webhook URL the target service refuses is shown on its field.
    await page
      .getByLabel('チャット通知 (Discord・Slack・Teams・LINE・Chatwork・Telegram)')
      .selectOption('site');
    await page.getByLabel('Discord Webhook URL').fill('https://example.com/hook');
    await page.getByRole('button', { name: '登録する' }).click();
    await expect
      .poll(() => page.locator('#wizard-webhook-error').textContent())
      .toBe('Discord Webhook URLが正しくありません。');
    await page
      .getByLabel('チャット通知 (Discord・Slack・Teams・LINE・Chatwork・Telegram)')
      .selectOption('none');
    await check(page, 'wizard-notify-1280-ja');
    await page.getByRole('button', { name: '登録する' }).click();

    await page.waitForURL((url) => url.pathname === '/target2');
    const id = new URL(page.url()).searchParams.get('id') ?? '';
    const { targets } = await apiGet<{ targets: TargetRow[] }>(page, '/api/v2/targets');
    expect(
      targets.map(({ id: rowId, label, url, valid, interval_minutes }) => ({
        rowId,
        label,
        url,
        valid,
        interval_minutes,
      })),
    ).toEqual([{ rowId: id, label: 'お茶屋さん', url: shopUrl, valid: true, interval_minutes: 60 }]);
    const stored = await apiGet<StoredTarget>(page, `/api/v2/target?id=${id}`);
    expect(stored.settings.areas).toHaveLength(1);
    expect(stored.settings.areas[0]).toMatchObject({
      label: '煎茶の価格',
      content: '¥1,280',
      locator: { selector: expect.stringContaining('price') },
      options: { stripTags: true, excludeDates: true, excludeTimes: false },
    });
    // The empty second group was removed on saving.
    expect(stored.settings.rules).toEqual({
      combine: 'or',
      groups: [
        {
          combine: 'and',
          conditions: [
            { areaId: stored.settings.areas[0]?.area_id, operand: 'all', operator: 'decrease', value: '100' },
          ],
        },
      ],
    });
    // The served HTML holds the price, so the cheap HTTP mode is chosen.
    expect(stored.settings.fetch_mode).toBe('http');
    expect(stored.settings.has_cookies).toBe(true);

    // "Edit settings" on the site detail opens the notification settings of this site directly.
    await page.goto(pageUrl(`/sr2c?id=${id}&step=notify`));
    await expect.poll(() => stepHeading(page)).toBe('ステップ 5/5: 通知設定');
    expect(await page.getByLabel('ラベル', { exact: true }).inputValue()).toBe('お茶屋さん');
    expect(await page.getByLabel('値', { exact: true }).inputValue()).toBe('100');
    await page.getByLabel('ラベル', { exact: true }).fill('お茶屋さん (煎茶)');
    await page.getByRole('button', { name: '更新する' }).click();
    await page.waitForURL((url) => url.pathname === '/target2');
    const edited = await apiGet<StoredTarget>(page, `/api/v2/target?id=${id}`);
    expect(edited.settings.label).toBe('お茶屋さん (煎茶)');
    // A blank cookie field keeps the stored cookies.
    expect(edited.settings.has_cookies).toBe(true);
    // Editing settings leaves the monitoring as it was.
    const afterEdit = await apiGet<{ targets: TargetRow[] }>(page, '/api/v2/targets');
    expect(afterEdit.targets.map((row) => row.valid)).toEqual([true]);
    expect(edited.settings.areas[0]?.label).toBe('煎茶の価格');

    // "Redo registration" goes through the steps again with the stored URL and areas, on the page as it is now.
    price = '¥1,380';
    await page.goto(pageUrl(`/sr2c?id=${id}`));
    await expect.poll(() => stepHeading(page)).toBe('ステップ 1/5: URLの入力');
    expect(await page.getByLabel('URL', { exact: true }).inputValue()).toBe(shopUrl);
    await page.getByRole('button', { name: '次へ' }).click();
    await expect.poll(() => stepHeading(page), PAGE_LOAD).toBe('ステップ 2/5: サイト表示の確認');
    for (let step = 0; step < 3; step++) await page.getByRole('button', { name: '次へ' }).click();
    await expect.poll(() => stepHeading(page)).toBe('ステップ 3/5: 監視エリアの指定');
    // The stored area is found on the new picture, so a click inside it is refused again.
    expect(await page.locator('.area-row-label').allTextContents()).toEqual(['煎茶の価格']);
    await page.getByRole('button', { name: '¥1,380', exact: true }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('すでに指定したエリア「煎茶の価格」の内側は選べません。別の場所を選んでください。');
    await page.getByRole('button', { name: 'Sencha 100g', exact: true }).click();
    await expect.poll(() => page.locator('.area-row').count()).toBe(2);
    await page.getByRole('button', { name: '次へ' }).click();
    await expect.poll(() => stepHeading(page)).toBe('ステップ 4/5: エリア内容の確認');
    await expect
      .poll(() => page.getByLabel('比較される内容 (オプション適用後)').first().inputValue(), READING)
      .toBe('¥1,380');
    await page.getByRole('button', { name: '次へ' }).click();
    await expect.poll(() => stepHeading(page)).toBe('ステップ 5/5: 通知設定');
    await page.getByRole('button', { name: '更新する' }).click();
    await page.waitForURL((url) => url.pathname === '/target2');
    const redone = await apiGet<StoredTarget>(page, `/api/v2/target?id=${id}`);
    expect(redone.settings.areas.map((area) => area.label)).toEqual(['煎茶の価格', 'Tea shop']);
    // The stored area's data at registration is what the page shows now.
    expect(redone.settings.areas[0]?.content).toBe('¥1,380');
    price = '¥1,280';
    expect(redone.settings.label).toBe('お茶屋さん (煎茶)');
    await page.context().close();
  });

  it('registers a page from the element list and tells a site saved paused for want of quota — English, 375 px (/sr2m)', async () => {
    const page = await (await browser.newContext({ locale: 'en-US', viewport: NARROW })).newPage();
    await signedInUser(page, 'wizard-en@example.com', SIGN_UP_LABELS.en);

    price = '¥1,280';
    await page.goto(pageUrl('/sr2m'));
    await expect.poll(() => stepHeading(page)).toBe('Step 1 of 5: Enter the URL');
    // A page the site answers with 404 is named as such.
    await page.getByLabel('URL', { exact: true }).fill(`${shopBase}/missing`);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), PAGE_LOAD)
      .toBe('The URL could not be reached (404). Check the URL.');
    // An address refused on purpose says so, not that the site is down.
    await page.getByLabel('URL', { exact: true }).fill('http://169.254.169.254/latest/meta-data/');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), PAGE_LOAD)
      .toBe(
        'This is not a public internet address, so it cannot be watched (localhost, private networks, cloud metadata addresses). Enter the URL of a public site.',
      );
    await page.getByLabel('URL', { exact: true }).fill(shopUrl);
    expect(await page.getByRole('alert').count()).toBe(0);
    // A phone-sized screen for the page; a size out of range is refused on the spot.
    await page.getByText('More settings (screen size, cookies)').click();
    await page.getByLabel('Width (px)').fill('100');
    await page.getByLabel('Height (px)').fill('844');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect
      .poll(() => page.locator('#wizard-viewport-error').textContent())
      .toBe('The screen size is not valid.');
    await page.getByLabel('Width (px)').fill('390');
    await check(page, 'wizard-url-375-en');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => stepHeading(page), PAGE_LOAD).toBe('Step 2 of 5: Confirm the page');
    // The preview switches into the page's iframe and back.
    const frame = page.getByLabel('Frame shown');
    await frame.selectOption({ label: 'news' });
    await expect.poll(() => frame.inputValue(), PAGE_LOAD).not.toBe('');
    expect(await frame.locator('option:checked').textContent()).toBe('news');
    await check(page, 'wizard-display-375-en');
    await frame.selectOption({ label: 'Whole page (outside frames)' });
    await expect.poll(() => frame.inputValue(), PAGE_LOAD).toBe('');
    await page.getByRole('button', { name: 'Next' }).click();

    // The login is tested from a signed-out state; a cookie that never comes fails, and it can be retried.
    await expect.poll(() => stepHeading(page)).toBe('Login settings (optional)');
    await page.getByRole('checkbox', { name: 'This site needs a login' }).check();
    await page.getByRole('button', { name: 'Add an action' }).click();
    await page.getByLabel('Selector or XPath').fill('#login');
    await page.getByRole('radio', { name: 'By a cookie' }).check();
    await page.getByLabel('Name of the cookie set after login').fill('no_such_cookie');
    await page.getByRole('button', { name: 'Test the login' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), PAGE_LOAD)
      .toBe('Logging in could not be supported on this site.');
    await page.getByLabel('Name of the cookie set after login').fill('session');
    await page.getByRole('button', { name: 'Test again' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Logged in.' }).count(), PAGE_LOAD)
      .toBe(1);
    await check(page, 'wizard-login-375-en');
    await page.getByRole('button', { name: 'Next' }).click();

    // An action that reveals more of the page is tried on the live page.
    await expect.poll(() => stepHeading(page)).toBe('Actions (optional)');
    await page.getByRole('button', { name: 'Add an action' }).click();
    // A click without its element is caught on the field before going on.
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByText('Enter a selector or XPath.', { exact: true }).count()).toBe(1);
    expect(await stepHeading(page)).toBe('Actions (optional)');
    await page.getByLabel('Selector or XPath').fill('#more');
    await page.getByRole('button', { name: 'Try the actions' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'The actions ran.' }).count(), PAGE_LOAD)
      .toBe(1);
    await check(page, 'wizard-actions-375-en');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => stepHeading(page)).toBe('Step 3 of 5: Choose the areas');
    expect(await page.getByRole('button', { name: 'Limited offer', exact: true }).count()).toBe(1);

    // Keyboard users pick the area from the element list.
    await page.getByLabel('Choose an element by its text').selectOption({ label: '¥1,280' });
    await page.getByRole('button', { name: 'Add as an area' }).click();
    await expect.poll(() => page.locator('.area-row-label').allTextContents()).toEqual(['Sencha 100g']);
    await check(page, 'wizard-areas-375-en');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => stepHeading(page)).toBe('Step 4 of 5: Confirm area contents');
    await check(page, 'wizard-content-375-en');
    await page.getByRole('button', { name: 'Next' }).click();

    await expect.poll(() => stepHeading(page)).toBe('Step 5 of 5: Notification settings');
    // The label starts as the page's title, not its host.
    expect(await page.getByLabel('Label', { exact: true }).inputValue()).toBe('Tea shop');
    await page.getByLabel('Label', { exact: true }).fill('Tea price');
    // Basic 5 has no 1-minute sites: the site is saved, paused.
    await page.getByRole('button', { name: '1 minute' }).click();
    await expect
      .poll(() => page.getByText('Your plan has no room for this site as set', { exact: false }).count())
      .toBe(1);
    await page.getByRole('button', { name: 'Add a group' }).click();
    // A keyword condition without a keyword is caught before anything is sent.
    await page.getByRole('button', { name: 'Register' }).click();
    await expect.poll(() => page.getByText('Enter a value.', { exact: true }).count()).toBe(1);
    const value = page.getByLabel('Value', { exact: true });
    expect(await value.evaluate((input) => input === document.activeElement)).toBe(true);
    await value.fill('sale');
    await check(page, 'wizard-notify-375-en');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect
      .poll(() => page.getByRole('alertdialog').textContent())
      .toContain(
        'The site is registered, but monitoring could not start (no free slot). Start it from the dashboard.',
      );
    await page.getByRole('button', { name: 'OK' }).click();
    await page.waitForURL((url) => url.pathname === '/target2');

    const { targets } = await apiGet<{ targets: TargetRow[] }>(page, '/api/v2/targets');
    expect(targets.map(({ label, valid, interval_minutes }) => ({ label, valid, interval_minutes }))).toEqual(
      [{ label: 'Tea price', valid: false, interval_minutes: 1 }],
    );
    const stored = await apiGet<StoredTarget>(page, `/api/v2/target?id=${targets[0]?.id}`);
    expect(stored.settings.login).toMatchObject({
      actions: [{ type: 'click', locator: { selector: '#login' } }],
      verify: { kind: 'cookie', cookie_name: 'session' },
    });
    expect(stored.settings.actions).toMatchObject([{ type: 'click', locator: { selector: '#more' } }]);
    expect(stored.settings.viewport).toEqual({ width: 390, height: 844 });
    // A login and actions need the browser.
    expect(stored.settings.fetch_mode).toBe('browser');
    expect(stored.settings.rules?.groups[0]?.conditions).toEqual([
      { areaId: stored.settings.areas[0]?.area_id, operand: 'new', operator: 'keyword', value: 'sale' },
    ]);
    await page.context().close();
  });
});
