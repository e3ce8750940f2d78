import { status } from '@grpc/grpc-js';
import { crawlerV1 } from '@mimamori/contracts';
import {
  createGrpcClient,
  createGrpcServer,
  createLogger,
  createMetrics,
  type GrpcServer,
  unary,
} from '@mimamori/runtime';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserFixtureSite } from '../../test/browser-fixture-site.ts';
import type { FixtureSite } from '../../test/fixture-site.ts';
import { type BrowserPool, createBrowserPool } from '../browser/browser-pool.ts';
import type { DocumentReader, PageFetcher } from '../domain/page-fetcher.ts';
import { createHttpPageFetcher } from '../http/index.ts';
import { createPreviewService, type PreviewService } from '../preview/preview-service.ts';
import { previewServer } from './preview-server.ts';

let site: FixtureSite;
let pool: BrowserPool;
let http: PageFetcher & DocumentReader;
let preview: PreviewService;
let server: GrpcServer;
let client: crawlerV1.PreviewServiceClient;
let clockSkewMs = 0;
const secrets = createSecretBox(generateSecretKey('test'));

beforeAll(async () => {
  site = await startBrowserFixtureSite();
  pool = createBrowserPool({ allow: [site.authority], pagesPerBrowser: 6 });
  http = createHttpPageFetcher({ allow: [site.authority], attempts: 1 });
  preview = createPreviewService({
    pool,
    httpFetcher: http,
    limits: { loadTimeoutMs: 5_000, settleTimeoutMs: 5_000, actionTimeoutMs: 2_000 },
    sessions: { perUser: 3, total: 12, idleMs: 10 * 60_000 },
    now: () => Date.now() + clockSkewMs,
  });
  const logger = createLogger({
    service: 'crawler-test',
    level: (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent',
  });
  server = createGrpcServer({ logger, metrics: createMetrics({ service: 'crawler-test' }) });
  server.addService(crawlerV1.PreviewServiceService, previewServer(preview, secrets));
  const port = await server.start({ host: '127.0.0.1', port: 0 });
  server.setServing(true);
  client = createGrpcClient(crawlerV1.PreviewServiceClient, `127.0.0.1:${port}`, { deadlineMs: 30_000 });
});

afterAll(async () => {
  client?.close();
  await server?.shutdown(1_000);
  await preview?.closeAll();
  await pool?.close();
  await http?.close();
  await site?.close();
});

const open = (userId: string, path: string, extra: Partial<crawlerV1.OpenPreviewRequest> = {}) =>
  unary(client, 'openPreview', {
    userId,
    url: `${site.origin}${path}`,
    userAgentKind: 'chrome',
    userAgentValue: '',
    viewportWidth: 0,
    viewportHeight: 0,
    cookies: '',
    useProxy: false,
    readerLang: '',
    readerTimeZone: '',
    ...extra,
  });

const css = (selector: string) => ({
  selector,
  selectorType: 'css',
  frameSelector: '',
  frameSelectorType: '',
});

async function grpcCode(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    return (error as { code?: number }).code;
  }
}

describe('wizard preview over gRPC', () => {
  it('opens a page: a WebP screenshot and visible elements with boxes, CSS selector and XPath', async () => {
    const opened = await open('user-a', '/static');
    expect(opened.sessionId).not.toBe('');
    const render = opened.render as crawlerV1.PreviewRender;
    expect(render.screenshotType).toBe('image/webp');
    const meta = await sharp(render.screenshot).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', render.imageWidth, render.imageHeight]);
    expect(render.scale).toBeCloseTo(1);
    const price = render.elements.find((element) => element.css === '#price');
    expect(price).toMatchObject({ tag: 'div', xpath: '//*[@id="price"]', text: '¥1,200' });
    expect(price?.box?.width).toBeGreaterThan(0);
    const note = render.elements.find((element) => element.tag === 'p');
    expect(note).toMatchObject({ css: 'html > body > p:nth-of-type(1)', xpath: '/html/body[1]/p[1]' });
    await unary(client, 'closePreview', { userId: 'user-a', sessionId: opened.sessionId });
  });

  it('shows a Japanese user the page as their browser would: Japanese, in their time zone', async () => {
    const opened = await open('user-ja', '/locale-echo', { readerLang: 'ja', readerTimeZone: 'Asia/Tokyo' });
    const text = (selector: string) =>
      unary(client, 'evaluateArea', { userId: 'user-ja', sessionId: opened.sessionId, area: css(selector) });
    expect((await text('#accept')).text).toBe('ja-JP');
    expect((await text('#language')).text).toBe('ja-JP');
    expect((await text('#zone')).text).toBe('Asia/Tokyo');
    expect((await text('#greeting')).text).toBe('いらっしゃいませ');
    await unary(client, 'closePreview', { userId: 'user-ja', sessionId: opened.sessionId });

    const english = await open('user-en', '/locale-echo', { readerLang: 'en', readerTimeZone: 'Etc/GMT-9' });
    const read = (selector: string) =>
      unary(client, 'evaluateArea', { userId: 'user-en', sessionId: english.sessionId, area: css(selector) });
    expect((await read('#greeting')).text).toBe('Welcome');
    expect((await read('#zone')).text).toBe('Etc/GMT-9');
    await unary(client, 'closePreview', { userId: 'user-en', sessionId: english.sessionId });
  });

  it('lists frames and re-renders inside one', async () => {
    const opened = await open('user-a', '/framed');
    expect(opened.render?.frames).toMatchObject([{ css: '#inner-frame', src: `${site.origin}/inner` }]);
    const inside = await unary(client, 'renderPreview', {
      userId: 'user-a',
      sessionId: opened.sessionId,
      frameSelector: '#inner-frame',
      frameSelectorType: 'css',
    });
    expect(inside.render?.frameSelector).toBe('#inner-frame');
    expect(inside.render?.elements.map((element) => element.text)).toContain('content inside the frame');
    expect(inside.render?.imageWidth).toBe(400);
    await unary(client, 'closePreview', { userId: 'user-a', sessionId: opened.sessionId });
  });

  it('evaluates a candidate area and tells whether the served HTML has the same text', async () => {
    const served = await open('user-a', '/static');
    const price = await unary(client, 'evaluateArea', {
      userId: 'user-a',
      sessionId: served.sessionId,
      area: css('#price'),
    });
    expect(price).toMatchObject({ found: true, text: '¥1,200', httpSuffices: true });
    const missing = await unary(client, 'evaluateArea', {
      userId: 'user-a',
      sessionId: served.sessionId,
      area: css('#none'),
    });
    expect(missing).toMatchObject({ found: false, httpSuffices: false });
    await unary(client, 'closePreview', { userId: 'user-a', sessionId: served.sessionId });

    const scripted = await open('user-a', '/scripted');
    const app = await unary(client, 'evaluateArea', {
      userId: 'user-a',
      sessionId: scripted.sessionId,
      area: css('#app'),
    });
    expect(app).toMatchObject({ found: true, text: 'rendered by script', httpSuffices: false });
    await unary(client, 'closePreview', { userId: 'user-a', sessionId: scripted.sessionId });
  });

  it('suggests a short name for a chosen area from what the page says about it, never from its text', async () => {
    const opened = await open('user-a', '/named-areas');
    const nameOf = async (selector: string) =>
      (
        await unary(client, 'evaluateArea', {
          userId: 'user-a',
          sessionId: opened.sessionId,
          area: css(selector),
        })
      ).name;
    // The part's name (its aria-labelledby) with the label beside the price.
    expect(await nameOf('#tea-price')).toBe('有機緑茶 価格');
    // The last heading before it in its part, not the page's title above.
    expect(await nameOf('#news')).toBe('お知らせ');
    // A form field's label, an element's own aria-label, a <dd>'s <dt> under the page's heading.
    expect(await nameOf('#stock')).toBe('在庫数');
    expect(await nameOf('#badge')).toBe('セール中の印');
    expect(await nameOf('#shipping')).toBe('有機栽培のお茶のお店 送料');
    // Cut to 30 characters; nothing but the page's title when that is all it says.
    const long = await nameOf('#under-long');
    expect(long).toHaveLength(30);
    expect(long.endsWith('…')).toBe(true);
    expect(await nameOf('#unnamed')).toBe('有機栽培のお茶のお店');
    // The heading of a card before it heads that card only.
    expect(await nameOf('#after-card')).toBe('有機栽培のお茶のお店');
    // A part's name and its label too long together: the part's name alone.
    expect(await nameOf('#en-price')).toBe('Yame sencha green tea, 100 g');
    // The whole page's heading, chosen as the area itself, names nothing but its own text.
    expect(await nameOf('h1')).toBe('');
    await unary(client, 'closePreview', { userId: 'user-a', sessionId: opened.sessionId });
  });

  it('tests a login: a wrong password fails with login_failed, the right one shows the members page', async () => {
    const opened = await open('user-b', '/members');
    const actions = (password: string) => [
      { type: 'enter_text', locator: css('#user'), value: 'sato', skippable: false, sealedValue: '' },
      { type: 'enter_text', locator: css('#pass'), value: password, skippable: false, sealedValue: '' },
      { type: 'click', locator: css('#submit'), value: '', skippable: false, sealedValue: '' },
    ];
    const login = (password: string) =>
      unary(client, 'testLogin', {
        userId: 'user-b',
        sessionId: opened.sessionId,
        actions: actions(password),
        verifyKind: 'cookie',
        verifyCookieName: 'member',
      });
    const wrong = await login('nope');
    expect(wrong).toMatchObject({ ok: false, problem: { code: 'login_failed' } });
    expect(wrong.problem?.detail).not.toContain('nope');
    const right = await login('s3cret!');
    expect(right.ok).toBe(true);
    expect(right.render?.elements.find((element) => element.css === '#secret')?.text).toContain(
      'members only',
    );
    await unary(client, 'closePreview', { userId: 'user-b', sessionId: opened.sessionId });
  });

  it('opens a login password the gateway sealed for this user, session and action only', async () => {
    const opened = await open('user-b', '/members');
    const sealedFor = (userId: string, sessionId: string, index: number) =>
      secrets.seal('s3cret!', `preview:${userId}:${sessionId}:login:${index}`);
    const login = (sealedValue: string) =>
      unary(client, 'testLogin', {
        userId: 'user-b',
        sessionId: opened.sessionId,
        actions: [
          { type: 'enter_text', locator: css('#user'), value: 'sato', skippable: false, sealedValue: '' },
          { type: 'enter_text', locator: css('#pass'), value: '', skippable: false, sealedValue },
          { type: 'click', locator: css('#submit'), value: '', skippable: false, sealedValue: '' },
        ],
        verifyKind: 'cookie',
        verifyCookieName: 'member',
      });
    expect((await login(sealedFor('user-b', opened.sessionId, 1))).ok).toBe(true);
    // Sealed for another user, another session or another action: refused, never typed.
    for (const sealed of [
      sealedFor('user-a', opened.sessionId, 1),
      sealedFor('user-b', 'another-session', 1),
      sealedFor('user-b', opened.sessionId, 0),
    ]) {
      expect(await grpcCode(login(sealed))).toBe(status.INVALID_ARGUMENT);
    }
    await unary(client, 'closePreview', { userId: 'user-b', sessionId: opened.sessionId });
  });

  it('runs actions and renders what they revealed', async () => {
    const opened = await open('user-b', '/reveal');
    expect(opened.render?.elements.some((element) => element.css === '#hidden')).toBe(false);
    const ran = await unary(client, 'runActions', {
      userId: 'user-b',
      sessionId: opened.sessionId,
      actions: [{ type: 'click', locator: css('#more'), value: '', skippable: false, sealedValue: '' }],
    });
    expect(ran.ok).toBe(true);
    expect(ran.render?.elements.find((element) => element.css === '#hidden')?.text).toBe('revealed text');
    const failed = await unary(client, 'runActions', {
      userId: 'user-b',
      sessionId: opened.sessionId,
      actions: [{ type: 'click', locator: css('#absent'), value: '', skippable: false, sealedValue: '' }],
    });
    expect(failed).toMatchObject({ ok: false, problem: { code: 'element_not_found' } });
    expect(failed.problem?.detail).toContain('#absent');
    await unary(client, 'closePreview', { userId: 'user-b', sessionId: opened.sessionId });
  });

  it('answers a page that cannot be opened with a problem and keeps no session', async () => {
    const refused = await open('user-c', '', { url: 'http://127.0.0.2:8081/' });
    expect(refused).toMatchObject({ sessionId: '', problem: { code: 'refused_address' } });
    expect(await grpcCode(open('user-c', '', { url: 'file:///etc/passwd' }))).toBe(status.INVALID_ARGUMENT);
  });

  it('limits sessions per user, keeps them to their user, and frees a slot on close', async () => {
    const sessions = [];
    for (let index = 0; index < 3; index++) sessions.push((await open('user-d', '/static')).sessionId);
    expect(await grpcCode(open('user-d', '/static'))).toBe(status.RESOURCE_EXHAUSTED);

    const other = await open('user-e', '/static');
    expect(other.sessionId).not.toBe('');
    const [first] = sessions as [string];
    const foreign = unary(client, 'evaluateArea', {
      userId: 'user-e',
      sessionId: first,
      area: css('#price'),
    });
    expect(await grpcCode(foreign)).toBe(status.NOT_FOUND);
    expect(await grpcCode(unary(client, 'closePreview', { userId: 'user-e', sessionId: first }))).toBe(
      status.NOT_FOUND,
    );

    await unary(client, 'closePreview', { userId: 'user-d', sessionId: first });
    const again = await open('user-d', '/static');
    expect(again.sessionId).not.toBe('');
    for (const sessionId of [...sessions.slice(1), again.sessionId]) {
      await unary(client, 'closePreview', { userId: 'user-d', sessionId });
    }
    await unary(client, 'closePreview', { userId: 'user-e', sessionId: other.sessionId });
  });

  it('expires idle sessions and frees their slots', async () => {
    const sessions = [];
    for (let index = 0; index < 3; index++) sessions.push((await open('user-f', '/static')).sessionId);
    clockSkewMs = 11 * 60_000;
    try {
      await preview.sweep();
      const [first] = sessions as [string];
      const expired = unary(client, 'renderPreview', {
        userId: 'user-f',
        sessionId: first,
        frameSelector: '',
        frameSelectorType: '',
      });
      expect(await grpcCode(expired)).toBe(status.NOT_FOUND);
      const fresh = await open('user-f', '/static');
      expect(fresh.sessionId).not.toBe('');
      await unary(client, 'closePreview', { userId: 'user-f', sessionId: fresh.sessionId });
    } finally {
      clockSkewMs = 0;
    }
  });
});
