import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceSiteRegistration } from '../system-tests/rig/price-site.ts';
import { mailFromMailbox } from './mailbox.ts';
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

// Chat links through the screens against the product's own platform stand-ins (/dev/<platform>,
// served on loopback): link from the account page, a test message, an update with its pictures,
// and a link the platform's side kills shown on the dashboard. One row per platform below; each
// platform brings its own link steps and its own way of reading what its stand-in received.

/** A shop page on loopback whose price the test changes. */
let shop: { server: Server; host: string; url: string; setPrice: (price: string) => void };
beforeAll(async () => {
  let price = '¥1,200';
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    response.end(
      `<!doctype html><html><head><title>Sale</title></head><body style="background:#fff"><h1>Sale</h1><p id="price" style="font-size:48px;color:#c00">${price}</p></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  shop = {
    server,
    host: `127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}/sale`,
    setPrice: (next) => {
      price = next;
    },
  };
});
afterAll(async () => {
  shop?.server.closeAllConnections();
  await new Promise<void>((resolve) => (shop ? shop.server.close(() => resolve()) : resolve()));
});
const running = productAndBrowser(() => ({ env: { CRAWLER_ALLOW: shop.host } }));

type Lang = 'ja' | 'en';
const WORDS = {
  ja: {
    platform: 'チャットサービス',
    add: '連携を追加',
    link: '連携する',
    linked: '連携中',
    broken: '送信できません',
    test: 'テスト送信',
    sent: 'テストメッセージを送りました。',
    dead: '送信先が使えなくなっています。連携し直してください。',
    testMessage: 'Mimamori のテストメッセージです',
    // The update's one line leads the title, the site after it.
    update: '｜Autumn sale',
    warning: (count: number) => `チャット連携 ${count} 件への送信が止まっています。`,
    revoked: '連携の許可（トークン）が取り消されました',
    mailed: 'への通知を送れなくなりました: 連携の許可（トークン）が取り消されました。',
    getCode: 'コードを表示',
    openChat: 'チャットを開く',
    codeHow: { line: '公式アカウントを友だち追加し', telegram: '「開始」を押してください' },
  },
  en: {
    platform: 'Chat service',
    add: 'Add a link',
    link: 'Link',
    linked: 'Linked',
    broken: 'Not delivering',
    test: 'Send a test',
    sent: 'The test message was sent.',
    dead: 'This chat can no longer be reached. Link it again.',
    testMessage: 'A test message from Mimamori',
    update: ' | Autumn sale',
    warning: (count: number) => `${count} chat links are not delivering.`,
    revoked: 'its access (token) was revoked',
    getCode: 'Show the code',
    openChat: 'Open the chat',
    codeHow: { line: "add Mimamori's LINE official account as a friend", telegram: 'press Start' },
  },
} as const;

/** One platform as the screens link it and as its stand-in shows what it received. */
interface PlatformCase {
  platform: string;
  /** Fills in and sends the platform's link form in the panel (the platform already chosen). */
  link(panel: Locator, page: Page, lang: Lang, run: string): Promise<void>;
  /** The stand-in's record of the chat this run linked: its text, and how many pictures it holds. */
  received(page: Page, run: string): Promise<{ text: string; pictures: number }>;
  /** Plays the platform's side ending the link (a revoked token, a blocked bot). */
  kill(page: Page, run: string): Promise<void>;
  /** How the account page words the broken link's reason, when not as a revoked token. */
  brokenReason?: Record<Lang, string>;
  /**
   * The platform calls the product back as the link ends (LINE's unfollow, Telegram's blocked
   * bot), so it shows broken at once; otherwise the next send (the test message) finds it dead.
   */
  deadAtOnce?: true;
}

/**
 * A code link (LINE, Telegram): shows the code, opens the platform's link from the panel in a tab
 * as the person whose chat this run links (`?as=`), and plays them there.
 */
async function linkByCode(
  platform: 'line' | 'telegram',
  panel: Locator,
  page: Page,
  lang: Lang,
  as: string,
  inChat: (chat: Page, code: string) => Promise<void>,
) {
  await panel.getByRole('button', { name: WORDS[lang].getCode }).click();
  expect(await panel.getByTestId('chat-link-code').textContent()).toContain(WORDS[lang].codeHow[platform]);
  await panel
    .getByTestId('chat-link-code')
    .screenshot({ path: join(shots, `chat-${platform}-${lang}-${as}-code.png`) });
  const code = (await panel.locator('.chat-link-code-value').textContent()) ?? '';
  expect(code).toMatch(/^[A-Z0-9]{6,}$/);
  const start = new URL(
    (await panel.getByRole('link', { name: WORDS[lang].openChat }).getAttribute('href')) ?? '',
  );
  start.searchParams.set('as', as);
  const chat = await page.context().newPage();
  await chat.goto(start.href);
  await inChat(chat, code);
  await chat.close();
}

/** The messages the stand-in page shows for the person this run plays: their text and pictures. */
async function receivedOnPage(page: Page, platform: string, as: string) {
  await page.goto(new URL(`/dev/${platform}?as=${as}`, running.product.url).href);
  const messages = page.locator('.message');
  return {
    text: (await messages.allTextContents()).join('\n'),
    pictures: await messages.locator('img').count(),
  };
}

/** A LINE user id (`U` and 32 hex digits) of the run's own. */
const lineUser = (run: string) =>
  `U${Buffer.from(`e2e-${run}`).toString('hex').padEnd(32, '0').slice(0, 32)}`;
const telegramUser = (run: string) => String(700_000_100 + run.length * 7 + run.charCodeAt(0));

const chatworkToken = (run: string) => `e2e${run}`.padEnd(32, '0');
const chatworkRoom = (run: string) => String(7_000 + run.length * 7 + run.charCodeAt(0));

/** Each run links its own channel of the Slack stand-in's workspace. */
const slackChannel = (run: string) =>
  run === 'ja' ? { id: 'C0GENERAL', name: 'general' } : { id: 'C0ALERTS', name: 'alerts' };
const teamsFlow = (run: string) => `e2e-flow-${run}`;
const teamsFlowUrl = (run: string) =>
  `https://default0000.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/${teamsFlow(run)}/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=e2e-${run}`;

const PLATFORMS: PlatformCase[] = [
  {
    platform: 'chatwork',
    async link(panel, _page, lang, run) {
      await panel.getByLabel(lang === 'ja' ? 'API トークン' : 'API token').fill(chatworkToken(run));
      await panel
        .getByLabel(lang === 'ja' ? 'ルーム ID（またはルームの URL）' : "Room ID (or the room's URL)")
        .fill(`https://www.chatwork.com/#!rid${chatworkRoom(run)}`);
      await panel.getByRole('button', { name: WORDS[lang].link, exact: true }).click();
    },
    async received(page, run) {
      const records = page.locator(`.record[data-room="${chatworkRoom(run)}"]`);
      return {
        text: (await records.allTextContents()).join('\n'),
        pictures: await records.locator('img').count(),
      };
    },
    async kill(page, run) {
      const hint = chatworkToken(run).slice(-4);
      await page
        .getByRole('button', { name: `Revoke token …${hint}` })
        .first()
        .click();
      await expect.poll(() => page.getByText(`API token …${hint} (revoked)`).count()).toBeGreaterThan(0);
    },
  },
  {
    platform: 'line',
    async link(panel, page, lang, run) {
      await linkByCode('line', panel, page, lang, lineUser(run), async (chat, code) => {
        await chat.getByRole('button', { name: 'Add friend' }).click();
        await chat.getByLabel('Message to the official account (the code Mimamori shows)').fill(code);
        await chat.getByRole('button', { name: 'Send', exact: true }).click();
        await expect.poll(() => chat.getByRole('status').textContent()).toContain('the product answered 200');
      });
    },
    received: (page, run) => receivedOnPage(page, 'line', lineUser(run)),
    async kill(page, run) {
      await page.goto(new URL(`/dev/line?as=${lineUser(run)}`, running.product.url).href);
      await page.getByRole('button', { name: 'Block the official account' }).click();
      await expect
        .poll(() => page.getByRole('status').textContent())
        .toContain('unfollow sent; the product answered 200');
    },
    brokenReason: {
      ja: '送信先のチャットが削除されたか、ボットが外されました',
      en: 'the chat was removed or the bot was taken out of it',
    },
    deadAtOnce: true,
  },
  {
    platform: 'telegram',
    async link(panel, page, lang, run) {
      await linkByCode('telegram', panel, page, lang, telegramUser(run), async (chat) => {
        await chat.getByRole('button', { name: 'Start' }).click();
        await expect.poll(() => chat.getByRole('status').textContent()).toContain('the product answered 200');
      });
    },
    received: (page, run) => receivedOnPage(page, 'telegram', telegramUser(run)),
    async kill(page, run) {
      await page.goto(new URL(`/dev/telegram?as=${telegramUser(run)}`, running.product.url).href);
      await page.getByRole('button', { name: 'Block the bot' }).click();
      await expect.poll(() => page.getByRole('status').textContent()).toContain('the product answered 200');
    },
    brokenReason: {
      ja: '送信先のチャットが削除されたか、ボットが外されました',
      en: 'the chat was removed or the bot was taken out of it',
    },
    deadAtOnce: true,
  },
  {
    platform: 'slack',
    async link(panel, page, lang, run) {
      await panel.getByRole('button', { name: lang === 'ja' ? 'Slack に追加' : 'Add to Slack' }).click();
      // Slack's consent page (the stand-in's): this run's channel, then allow; Slack sends the
      // browser back to the product's OAuth return, which lands on the account page.
      await page.getByLabel(`#${slackChannel(run).name}`).check();
      await page.getByRole('button', { name: 'Allow' }).click();
    },
    async received(page, run) {
      const messages = page.locator(
        `section.channel[data-channel="${slackChannel(run).id}"] article.message`,
      );
      return {
        text: (await messages.allTextContents()).join('\n'),
        pictures: await messages.locator('img').count(),
      };
    },
    async kill(page) {
      // Signed app_uninstalled and tokens_revoked go to the product's /hooks/slack.
      await page.getByRole('button', { name: 'Uninstall the app' }).click();
      await expect
        .poll(() => page.getByText('app_uninstalled: the product answered 200').count())
        .toBeGreaterThan(0);
    },
    deadAtOnce: true,
  },
  {
    platform: 'teams',
    async link(panel, _page, lang, run) {
      await panel
        .getByLabel(lang === 'ja' ? 'Workflows の Webhook URL' : 'Workflows webhook URL')
        .fill(teamsFlowUrl(run));
      await panel.getByRole('button', { name: WORDS[lang].link, exact: true }).click();
    },
    async received(page, run) {
      const cards = page.locator(`section.flow[data-flow="${teamsFlow(run)}"] article.card`);
      return {
        text: (await cards.allTextContents()).join('\n'),
        pictures: await cards.locator('img').count(),
      };
    },
    async kill(page, run) {
      const flow = page.locator(`section.flow[data-flow="${teamsFlow(run)}"]`);
      await flow.getByRole('button', { name: 'Turn the flow off' }).click();
      await expect.poll(() => flow.getByRole('button', { name: 'Turn the flow on' }).count()).toBe(1);
    },
    brokenReason: { ja: 'Teams のワークフローがオフにされました', en: 'the Teams workflow was turned off' },
  },
];

/** Opens the product's stand-in page of the platform in a tab of the page's context. */
async function standInPage(page: Page, platform: string): Promise<Page> {
  const tab = await page.context().newPage();
  await tab.goto(new URL(`/dev/${platform}`, running.product.url).href);
  return tab;
}

/** Links the platform on the account page and sends the test message; answers the link's row. */
async function linkOnAccountPage(page: Page, lang: Lang, platform: PlatformCase, run: string) {
  await page.goto(new URL('/account', running.product.url).href);
  const panel = page.getByTestId('account-chat-links');
  await panel.getByLabel(WORDS[lang].platform).selectOption(platform.platform);
  await panel.getByRole('button', { name: WORDS[lang].add }).click();
  await platform.link(panel, page, lang, run);
  const linkedRow = panel.locator(`[data-testid="chat-link-row"][data-platform="${platform.platform}"]`);
  await expect.poll(() => linkedRow.getByTestId('chat-link-status').textContent()).toBe(WORDS[lang].linked);
  await linkedRow.getByRole('button', { name: WORDS[lang].test }).click();
  await expect.poll(() => linkedRow.getByTestId('chat-link-test').textContent()).toBe(WORDS[lang].sent);
  return linkedRow;
}

describe('chat link routes', () => {
  it('documents every chat link route and has a Japanese and an English message for each refusal code', async () => {
    type Operation = { responses: Record<string, { description: string }> };
    const document = (await (await fetch(new URL('/api/openapi.json', running.product.url))).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const paths = Object.keys(document.paths).filter((path) => path.startsWith('/api/v2/chat-links'));
    expect(paths.sort()).toEqual([
      '/api/v2/chat-links',
      '/api/v2/chat-links/delete',
      '/api/v2/chat-links/start',
      '/api/v2/chat-links/test',
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
    expect(codes).toContain('chat_link_quota_exceeded');
    for (const language of ['ja', 'en']) {
      const read = async (file: string) =>
        JSON.parse(await readFile(join(repoRoot, 'web/src/i18n', file), 'utf8')) as Record<string, unknown>;
      const core = (await read(`${language}.json`)).errors as Record<string, string>;
      const known = { ...core, ...(await read(`features/errors-chat-link.${language}.json`)) };
      expect(
        [...codes].filter((code) => !(code in known)),
        language,
      ).toEqual([]);
    }
  });
});

/** The mail names each platform so (CHAT_PLATFORM_NAMES in the notifier's account mail). */
const MAIL_NAMES: Record<string, string> = {
  chatwork: 'Chatwork',
  line: 'LINE',
  telegram: 'Telegram',
  slack: 'Slack',
  teams: 'Microsoft Teams',
};

// One account per language links every platform in the table: a row added there is linked,
// test-sent, updated and ended here without a sign-up, site or update wait of its own.
describe('chat channels: every platform on one account', () => {
  it('links each platform from the account page, sends the test messages and one update with its pictures to all; each dead link shows on the dashboard — Japanese, 1280 and 375 px', async () => {
    const page = await openPage(running.browser, 'ja-JP', WIDE);
    const email = 'chat-ja@example.com';
    await signedUpAndIn(page, running.product.url, {
      email,
      password: 'chat-pass-1',
      // A plan with 1-minute slots: the site below is checked every minute (2 s on the tests' time).
      labels: { ...SIGN_UP_LABELS.ja, plan: 'ベーシック5 (1分間隔) 5サイト' },
    });
    const rows = new Map<string, Locator>();
    for (const platform of PLATFORMS)
      rows.set(platform.platform, await linkOnAccountPage(page, 'ja', platform, 'ja'));
    const stands = new Map<string, Page>();
    for (const platform of PLATFORMS) {
      const stand = await standInPage(page, platform.platform);
      stands.set(platform.platform, stand);
      expect((await platform.received(stand, 'ja')).text, platform.platform).toContain(WORDS.ja.testMessage);
    }

    await page.getByTestId('account-chat-links').scrollIntoViewIfNeeded();
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, 'chat-account-ja-1280');
    await page.getByTestId('account-chat-links').screenshot({ path: join(shots, 'chat-ja-1280-panel.png') });

    // A site whose messages go to the account's links; its one changed price is one update, with
    // its pictures, on every platform.
    const api = apiOf(page.context(), running.product.url);
    const registered = await api.post('/api/v2/target/register', {
      ...priceSiteRegistration('Autumn sale', shop.url),
      mail_notify: false,
      chat_notify: 'account',
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const id = String((registered.body as { target_v2_id: string }).target_v2_id);
    expect((registered.body as { paused: boolean }).paused).toBe(false);
    await expect
      .poll(
        async () =>
          ((await api.get(`/api/v2/history?id=${id}&filter=all`)).body as { entries?: unknown[] }).entries
            ?.length ?? 0,
        { timeout: 60_000, interval: 1_000 },
      )
      .toBeGreaterThan(0);
    shop.setPrice('¥980 sale');
    for (const platform of PLATFORMS) {
      const stand = stands.get(platform.platform) as Page;
      await expect
        .poll(
          async () => {
            await stand.reload();
            return platform.received(stand, 'ja');
          },
          { timeout: 60_000, interval: 1_000, message: platform.platform },
        )
        .toMatchObject({ text: expect.stringContaining(WORDS.ja.update), pictures: 2 });
      await screenshot(stand, `chat-${platform.platform}-stand-in-update`);
    }

    // Each platform's side ends its link. The account page is still the one drawn with every link
    // working: a platform that calls back shows broken on the reload, the others once a send (the
    // test message) finds them dead.
    for (const platform of PLATFORMS) await platform.kill(stands.get(platform.platform) as Page, 'ja');
    for (const platform of PLATFORMS.filter((each) => !each.deadAtOnce))
      await rows.get(platform.platform)?.getByRole('button', { name: WORDS.ja.test }).click();
    for (const platform of PLATFORMS.filter((each) => !each.deadAtOnce)) {
      const row = rows.get(platform.platform) as Locator;
      await expect.poll(() => row.getByTestId('chat-link-status').textContent()).toBe(WORDS.ja.broken);
    }
    await page.reload();
    for (const platform of PLATFORMS) {
      const row = rows.get(platform.platform) as Locator;
      await expect
        .poll(() => row.getByTestId('chat-link-status').textContent(), { message: platform.platform })
        .toBe(WORDS.ja.broken);
      expect(await row.getByTestId('chat-link-broken-reason').textContent(), platform.platform).toContain(
        platform.brokenReason?.ja ?? WORDS.ja.revoked,
      );
    }
    // Its owner is told by mail of each link, in their language, with the way back to the account page.
    for (const platform of PLATFORMS) {
      const told = await mailFromMailbox(
        running.product.url,
        email,
        `${MAIL_NAMES[platform.platform]}「`,
        30_000,
      );
      expect(told.text, platform.platform).toContain(
        platform.brokenReason
          ? `への通知を送れなくなりました: ${platform.brokenReason.ja}。`
          : WORDS.ja.mailed,
      );
      expect(told.text).toContain(new URL('/account', running.product.url).href);
    }
    await page.goto(running.product.url.href);
    const warning = page.getByTestId('broken-chat-links');
    await expect.poll(() => warning.textContent()).toContain(WORDS.ja.warning(PLATFORMS.length));
    await expectNoSeriousAxeViolations(page);
    await screenshot(page, 'chat-dashboard-ja-1280');
    await page.setViewportSize(NARROW);
    await expectNoSidewaysOverflow(page);
    await screenshot(page, 'chat-dashboard-ja-375');
    await page.goto(new URL('/account', running.product.url).href);
    await page.getByTestId('account-chat-links').scrollIntoViewIfNeeded();
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await page.getByTestId('account-chat-links').screenshot({ path: join(shots, 'chat-ja-375-panel.png') });
    await page.context().close();
  }, 180_000);

  it('links each platform and test-sends in English, and links each platform as a site’s own chat on its page — 375 and 1280 px', async () => {
    const page = await openPage(running.browser, 'en-US', NARROW);
    await signedUpAndIn(page, running.product.url, {
      email: 'chat-en@example.com',
      password: 'chat-pass-1',
      labels: SIGN_UP_LABELS.en,
    });
    for (const platform of PLATFORMS) await linkOnAccountPage(page, 'en', platform, 'en');
    for (const platform of PLATFORMS) {
      const stand = await standInPage(page, platform.platform);
      expect((await platform.received(stand, 'en')).text, platform.platform).toContain(WORDS.en.testMessage);
      await stand.close();
    }
    await page.getByTestId('account-chat-links').scrollIntoViewIfNeeded();
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await page.getByTestId('account-chat-links').screenshot({ path: join(shots, 'chat-en-375-panel.png') });
    await page.setViewportSize(WIDE);
    await expectNoSidewaysOverflow(page);
    await screenshot(page, 'chat-account-en-1280');

    // A site's own links, on the site's page: their scope is the site, the account's list keeps all.
    const api = apiOf(page.context(), running.product.url);
    const registered = await api.post('/api/v2/target/register', {
      ...priceSiteRegistration('Own chat', 'https://shop.example.com/price'),
      interval_minutes: 60,
      screenshot: false,
      mail_notify: false,
      chat_notify: 'site',
      fetch_mode: 'http',
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const id = String((registered.body as { target_v2_id: string }).target_v2_id);
    const sitePanel = page.getByTestId('site-chat-links');
    const siteRow = (platform: PlatformCase) =>
      sitePanel.locator(`[data-testid="chat-link-row"][data-platform="${platform.platform}"]`);
    for (const platform of PLATFORMS) {
      await page.goto(new URL(`/target2?id=${id}`, running.product.url).href);
      await sitePanel.getByLabel(WORDS.en.platform).selectOption(platform.platform);
      await sitePanel.getByRole('button', { name: WORDS.en.add }).click();
      await platform.link(sitePanel, page, 'en', 'site');
      await expect
        .poll(() => siteRow(platform).getByTestId('chat-link-status').textContent(), {
          message: platform.platform,
        })
        .toBe(WORDS.en.linked);
      expect(await siteRow(platform).textContent()).toContain('This site only');
    }
    const listed = (await api.get('/api/v2/chat-links')).body as { links: { target_id: string }[] };
    expect(listed.links.map((link) => link.target_id).sort()).toEqual([
      ...PLATFORMS.map(() => ''),
      ...PLATFORMS.map(() => id),
    ]);
    await sitePanel.scrollIntoViewIfNeeded();
    await expectNoSidewaysOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await sitePanel.screenshot({ path: join(shots, 'chat-site-en-1280-panel.png') });
    // Opened again at phone width: the guided tour's ring placed at 1280 px stays where it was drawn.
    await page.setViewportSize(NARROW);
    await page.reload();
    for (const platform of PLATFORMS)
      await expect
        .poll(() => siteRow(platform).getByTestId('chat-link-status').textContent())
        .toBe(WORDS.en.linked);
    await sitePanel.scrollIntoViewIfNeeded();
    await expectNoSidewaysOverflow(page);
    await sitePanel.screenshot({ path: join(shots, 'chat-site-en-375-panel.png') });
    await page.context().close();
  }, 120_000);
});
