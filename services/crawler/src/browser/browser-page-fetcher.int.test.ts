import { readdirSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserFixtureSite } from '../../test/browser-fixture-site.ts';
import type { FixtureSite } from '../../test/fixture-site.ts';
import { startTinyproxy } from '../../test/tinyproxy-fixture.ts';
import type { FetchRequest, FetchResult, PageFetcher } from '../domain/page-fetcher.ts';
import { createBrowserPageFetcher } from './browser-page-fetcher.ts';
import { type BrowserPool, createBrowserPool } from './browser-pool.ts';

let site: FixtureSite;
let otherOrigin: FixtureSite;
let pool: BrowserPool;
let fetcher: PageFetcher;

beforeAll(async () => {
  site = await startBrowserFixtureSite();
  otherOrigin = await startBrowserFixtureSite();
  // The other site is reached by another host name, so its frame is cross-site.
  const otherSite = otherOrigin.authority.replace('127.0.0.1', 'localhost');
  pool = createBrowserPool({ allow: [site.authority, otherSite], pagesPerBrowser: 3 });
  fetcher = createBrowserPageFetcher({
    pool,
    limits: {
      loadTimeoutMs: 4_000,
      settleTimeoutMs: 4_000,
      maxDocumentBytes: 1_000_000,
      maxPageBytes: 1_500_000,
      actionTimeoutMs: 3_000,
    },
  });
});

afterAll(async () => {
  await fetcher?.close();
  await site?.close();
  await otherOrigin?.close();
});

function request(path: string, overrides: Partial<FetchRequest> = {}): FetchRequest {
  return {
    url: `${site.origin}${path}`,
    mode: 'browser',
    userAgent: { kind: 'chrome' },
    actions: [],
    areas: [],
    screenshot: 'none',
    ...overrides,
  };
}

const css = (areaId: string, selector: string) => ({ areaId, selector, selectorType: 'css' as const });

async function fetchOk(input: FetchRequest) {
  const result = await fetcher.fetch(input, new AbortController().signal);
  if (!result.ok) throw new Error(`expected a snapshot, got ${result.code}: ${result.detail}`);
  return result;
}

function failure(result: FetchResult) {
  if (result.ok) throw new Error('expected a failure');
  return result;
}

/** Chromium processes this worker launched (Playwright starts them as its children). */
function browserProcesses(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chrom');
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('browser page fetcher', () => {
  it('reads areas of a static page by CSS and XPath: HTML and what a person sees', async () => {
    const result = await fetchOk(
      request('/static', {
        areas: [
          css('price', '#price'),
          { areaId: 'note', selector: '//p[@class="note"]', selectorType: 'xpath' },
        ],
      }),
    );
    expect(result.status).toBe(200);
    expect(result.areas).toEqual([
      { areaId: 'price', found: true, html: '<div id="price">¥1,200</div>', text: '¥1,200' },
      { areaId: 'note', found: true, html: '<p class="note">in stock</p>', text: 'in stock' },
    ]);
  });

  it('waits for content a script renders after load', async () => {
    const result = await fetchOk(request('/scripted', { areas: [css('app', '#app')] }));
    expect(result.areas[0]?.text).toBe('rendered by script');
  });

  it('waits while a script keeps changing the page on its own timers, and reads the last state', async () => {
    const result = await fetchOk(request('/timed', { areas: [css('steps', '#steps')] }));
    expect(result.areas[0]?.text).toBe('4');
  });

  it('reads areas in the isolated world, so page scripts that patch the DOM API cannot lie', async () => {
    const result = await fetchOk(request('/tampering', { areas: [css('price', '#price')] }));
    expect(result.areas[0]?.text).toBe('¥5,000');
  });

  it('reads an area inside an iframe', async () => {
    const result = await fetchOk(
      request('/framed', {
        areas: [{ ...css('inside', 'p.inside'), frame: { selector: '#inner-frame', selectorType: 'css' } }],
      }),
    );
    expect(result.areas[0]?.text).toBe('content inside the frame');
  });

  it('reads an area inside an iframe from another site', async () => {
    const otherSite = otherOrigin.origin.replace('127.0.0.1', 'localhost');
    const result = await fetchOk(
      request(`/framed-from?src=${encodeURIComponent(`${otherSite}/inner`)}`, {
        areas: [{ ...css('inside', 'p.inside'), frame: { selector: '#other-origin', selectorType: 'css' } }],
      }),
    );
    expect(result.areas[0]?.text).toBe('content inside the frame');
    expect(otherOrigin.hits('/inner')).toBe(1);
  });

  it('names the selector when an element or its iframe is missing', async () => {
    const missing = failure(
      await fetcher.fetch(request('/static', { areas: [css('a', '#nope')] }), new AbortController().signal),
    );
    expect(missing).toMatchObject({ code: 'element_not_found', retryable: false });
    expect(missing.detail).toContain('#nope');
    const noFrame = failure(
      await fetcher.fetch(
        request('/static', {
          areas: [{ ...css('a', 'p'), frame: { selector: '#no-frame', selectorType: 'css' } }],
        }),
        new AbortController().signal,
      ),
    );
    expect(noFrame.code).toBe('element_not_found');
    expect(noFrame.detail).toContain('#no-frame');
  });

  it('reveals content with a click action', async () => {
    const result = await fetchOk(
      request('/reveal', {
        actions: [{ type: 'click', locator: { selector: '#more', selectorType: 'css' }, skippable: false }],
        areas: [css('hidden', '#hidden')],
      }),
    );
    expect(result.areas[0]?.text).toBe('revealed text');
  });

  it('clicks inside an iframe, submits with a key press and goes to a URL', async () => {
    const inFrame = { selector: '#panel', selectorType: 'css' as const };
    const framed = await fetchOk(
      request('/frame-button', {
        actions: [
          {
            type: 'click',
            locator: { selector: '#go', selectorType: 'css', frame: inFrame },
            skippable: false,
          },
        ],
        areas: [{ ...css('out', '#out'), frame: inFrame }],
      }),
    );
    expect(framed.areas[0]?.text).toBe('clicked inside');

    const searched = await fetchOk(
      request('/search', {
        actions: [
          {
            type: 'enter_text',
            locator: { selector: '//input[@id="q"]', selectorType: 'xpath' },
            value: '見守り',
            skippable: false,
          },
          {
            type: 'modifier_key',
            locator: { selector: '#q', selectorType: 'css' },
            value: 'Enter',
            skippable: false,
          },
        ],
        areas: [css('result', '#result')],
      }),
    );
    expect(searched.areas[0]?.text).toBe('results for 見守り');
    expect(searched.finalUrl).toContain('/search?q=');

    const moved = await fetchOk(
      request('/search', {
        actions: [{ type: 'goto_url', value: `${site.origin}/static`, skippable: false }],
        areas: [css('price', '#price')],
      }),
    );
    expect(moved.areas[0]?.text).toBe('¥1,200');
  });

  it('signs in by replaying the login when verified by replay, and keeps the session for the next check', async () => {
    const login = {
      verify: { kind: 'replay' as const },
      actions: [
        { type: 'goto_url' as const, value: `${site.origin}/login`, skippable: false },
        {
          type: 'enter_text' as const,
          locator: { selector: '#user', selectorType: 'css' as const },
          value: 'sato',
          skippable: false,
        },
        {
          type: 'enter_text' as const,
          locator: { selector: '#pass', selectorType: 'css' as const },
          value: 's3cret!',
          skippable: false,
        },
        {
          type: 'click' as const,
          locator: { selector: '#submit', selectorType: 'css' as const },
          skippable: false,
        },
      ],
    };
    const before = site.hits('/do-login');
    const first = await fetchOk(request('/members', { login, areas: [css('secret', '#secret')] }));
    const second = await fetchOk(
      request('/members', {
        login,
        sessionState: first.sessionState as string,
        areas: [css('secret', '#secret')],
      }),
    );
    expect(second.areas[0]?.text).toContain('members only');
    expect(site.hits('/do-login') - before).toBe(1);
  });

  it('goes through a real upstream proxy (tinyproxy) behind the guard', async () => {
    const proxy = await startTinyproxy();
    try {
      const result = await fetchOk(
        request('/echo-via', { proxyUrl: proxy.url, areas: [css('via', '#via')] }),
      );
      // The guard's proxy hands tinyproxy a tunnel to the checked address, never a name.
      expect(result.areas[0]?.text).toBe('direct');
      expect(proxy.asked).toContain(`CONNECT ${site.authority} HTTP/1.1`);
      expect(proxy.asked.every((line) => line.startsWith('CONNECT 127.0.0.1:'))).toBe(true);
      const refused = failure(
        await fetcher.fetch(
          request('/static', { url: 'http://127.0.0.2:8081/', proxyUrl: proxy.url }),
          new AbortController().signal,
        ),
      );
      expect(refused.code).toBe('refused_address');
    } finally {
      await proxy.close();
    }
  });

  it('passes over a skippable action whose element is missing, and fails on a required one', async () => {
    const skipped = await fetchOk(
      request('/static', {
        actions: [
          { type: 'click', locator: { selector: '#cookie-banner', selectorType: 'css' }, skippable: true },
        ],
        areas: [css('price', '#price')],
      }),
    );
    expect(skipped.areas[0]?.text).toBe('¥1,200');
    const required = failure(
      await fetcher.fetch(
        request('/static', {
          actions: [
            { type: 'click', locator: { selector: '#cookie-banner', selectorType: 'css' }, skippable: false },
          ],
        }),
        new AbortController().signal,
      ),
    );
    expect(required.code).toBe('element_not_found');
    expect(required.detail).toContain('#cookie-banner');
  });

  it('signs in with the login actions, keeps the session, and does not replay the login while the cookie holds', async () => {
    const login = {
      verify: { kind: 'cookie' as const, name: 'member' },
      actions: [
        {
          type: 'enter_text' as const,
          locator: { selector: '#user', selectorType: 'css' as const },
          value: 'sato',
          skippable: false,
        },
        {
          type: 'enter_text' as const,
          locator: { selector: '#pass', selectorType: 'css' as const },
          value: 's3cret!',
          skippable: false,
        },
        {
          type: 'click' as const,
          locator: { selector: '#submit', selectorType: 'css' as const },
          skippable: false,
        },
      ],
    };
    const logins = () => site.hits('/do-login');
    const before = logins();
    const first = await fetchOk(request('/members', { login, areas: [css('secret', '#secret')] }));
    expect(first.areas[0]?.text).toBe('members only: 会員価格 980円');
    expect(first.sessionState).toContain('member');
    expect(logins() - before).toBe(1);

    const second = await fetchOk(
      request('/members', {
        login,
        sessionState: first.sessionState as string,
        areas: [css('secret', '#secret')],
      }),
    );
    expect(second.areas[0]?.text).toBe('members only: 会員価格 980円');
    expect(logins() - before).toBe(1);

    const wrong = failure(
      await fetcher.fetch(
        request('/members', {
          login: {
            ...login,
            actions: login.actions.map((action, index) =>
              index === 1 ? { ...action, value: 'wrong' } : action,
            ),
          },
          areas: [css('secret', '#secret')],
        }),
        new AbortController().signal,
      ),
    );
    expect(wrong.code).toBe('login_failed');
    expect(wrong.detail).not.toContain('wrong');
  });

  it('reads a page behind a cookie the user set', async () => {
    const result = await fetchOk(
      request('/members', { cookies: 'member=ok', areas: [css('secret', '#secret')] }),
    );
    expect(result.areas[0]?.text).toContain('members only');
  });

  it('reports a timeout for a page that does not load in time', async () => {
    const before = site.hits('/slow');
    const result = failure(await fetcher.fetch(request('/slow'), new AbortController().signal));
    expect(result).toMatchObject({ code: 'timeout', retryable: true });
    expect(site.hits('/slow') - before).toBe(3);
  });

  it('follows a redirect chain up to the cap and refuses a longer one', async () => {
    const followed = await fetchOk(request('/hop/3', { areas: [css('end', '#end')] }));
    expect(followed.finalUrl).toBe(`${site.origin}/hop/0`);
    expect(followed.areas[0]?.text).toBe('end of the chain');
    const tooLong = failure(await fetcher.fetch(request('/hop/12'), new AbortController().signal));
    expect(tooLong).toMatchObject({ code: 'too_many_redirects', retryable: false });
  });

  it('reads a page whose sub-resource never finishes once its load time is up', async () => {
    const result = await fetchOk(request('/hanging-frame', { areas: [css('ready', '#ready')] }));
    expect(result.areas[0]?.text).toBe('ready without the frame');
  });

  it('refuses a page larger than the cap', async () => {
    const result = failure(await fetcher.fetch(request('/large'), new AbortController().signal));
    expect(result.code).toBe('too_large');
  });

  it('refuses a page whose document and sub-resources together download more than the cap', async () => {
    const result = failure(
      await fetcher.fetch(
        request('/heavy', { areas: [css('start', '#start')] }),
        new AbortController().signal,
      ),
    );
    expect(result).toMatchObject({ code: 'too_large', detail: expect.stringContaining('resources') });
  });

  it('tells a bot-protection page and an error status apart from an unreachable site', async () => {
    const challenge = failure(await fetcher.fetch(request('/challenge'), new AbortController().signal));
    expect(challenge.code).toBe('blocked_by_robot');
    const missing = failure(await fetcher.fetch(request('/missing'), new AbortController().signal));
    expect(missing).toMatchObject({ code: 'http_status', retryable: false });
    expect(missing.detail).toContain('404');
  });

  it('refuses loopback addresses that are not allow-listed, over http and https, through the guarded proxy', async () => {
    for (const url of ['http://127.0.0.2:8081/', 'https://127.0.0.2:8443/']) {
      const result = failure(await fetcher.fetch(request('/static', { url }), new AbortController().signal));
      expect(result).toMatchObject({ code: 'refused_address', retryable: false });
      expect(result.detail).toContain('127.0.0.2');
    }
  });

  it('takes a WebP screenshot of the page and of an area, with Japanese text rendered', async () => {
    const result = await fetchOk(
      request('/japanese', { screenshot: 'areas', areas: [css('title', '#title')] }),
    );
    const area = result.areas[0]?.screenshot;
    expect(area?.contentType).toBe('image/webp');
    const areaMeta = await sharp(area?.data as Uint8Array).metadata();
    expect(areaMeta.format).toBe('webp');
    expect(areaMeta.width).toBeGreaterThan(200);

    const page = await fetchOk(request('/japanese', { screenshot: 'page', areas: [css('body', '#body')] }));
    const pageMeta = await sharp(page.pageScreenshot?.data as Uint8Array).metadata();
    expect(pageMeta.width).toBe(1280);
    // Rendered CJK glyphs leave many dark pixels; missing fonts leave empty boxes or nothing.
    const { data, info } = await sharp(area?.data as Uint8Array)
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const dark = data.filter((value) => value < 128).length / (info.width * info.height);
    expect(dark).toBeGreaterThan(0.03);
    if (process.env.KEEP_SCREENSHOTS) {
      await sharp(page.pageScreenshot?.data as Uint8Array)
        .png()
        .toFile(`${process.env.KEEP_SCREENSHOTS}/page.png`);
      await sharp(area?.data as Uint8Array)
        .png()
        .toFile(`${process.env.KEEP_SCREENSHOTS}/area.png`);
    }
  });

  it('masks the elements an area excludes in page and area screenshots, and nothing else', async () => {
    const card = { ...css('card', '#card'), excludeElements: [':scope > p:nth-of-type(2)'] };
    /** The pixel's colour at (x, y) of a WebP picture. */
    const pixel = async (image: Uint8Array | undefined, x: number, y: number) => {
      const { data, info } = await sharp(image as Uint8Array)
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const at = (y * info.width + x) * info.channels;
      return [data[at], data[at + 1], data[at + 2]] as number[];
    };
    const near = (actual: number[], expected: number[]) =>
      actual.every((value, index) => Math.abs(value - (expected[index] ?? 0)) <= 24);
    const grey = [0x6b, 0x72, 0x80];
    const red = [0xdc, 0x26, 0x26];
    const blue = [0x1d, 0x4e, 0xd8];

    const page = await fetchOk(request('/excluded', { screenshot: 'page', areas: [card] }));
    // The stamp (left 60, top 200 on the page) is masked; the price above it is as drawn.
    expect(near(await pixel(page.pageScreenshot?.data, 160, 230), grey)).toBe(true);
    expect(near(await pixel(page.pageScreenshot?.data, 160, 90), blue)).toBe(true);
    // The text read is the page's own: masking only paints the picture.
    expect(page.areas[0]?.text).toContain('10:00');

    const area = await fetchOk(request('/excluded', { screenshot: 'areas', areas: [card] }));
    expect(near(await pixel(area.areas[0]?.screenshot?.data, 120, 190), grey)).toBe(true);
    expect(near(await pixel(area.areas[0]?.screenshot?.data, 120, 50), blue)).toBe(true);

    // Without the exclusion the stamp is drawn red: the checks above can fail.
    const plain = await fetchOk(request('/excluded', { screenshot: 'page', areas: [css('card', '#card')] }));
    expect(near(await pixel(plain.pageScreenshot?.data, 160, 230), red)).toBe(true);
  });

  it('takes screenshots only on change: areas read as at the last check are not pictured again', async () => {
    for (const screenshot of ['page', 'areas'] as const) {
      const first = await fetchOk(request('/static', { screenshot, areas: [css('price', '#price')] }));
      const pictured = (result: typeof first) =>
        Boolean(result.pageScreenshot) || result.areas.some((area) => area.screenshot);
      expect(pictured(first)).toBe(true);
      expect(first.areasDigest).toMatch(/^[0-9a-f]{64}$/);

      const unchanged = await fetchOk(
        request('/static', {
          screenshot,
          previousAreasDigest: first.areasDigest as string,
          areas: [css('price', '#price')],
        }),
      );
      expect(pictured(unchanged)).toBe(false);
      expect(unchanged.areasDigest).toBe(first.areasDigest);
      expect(unchanged.areas[0]?.text).toBe('¥1,200');

      // Another area read differently: pictured again.
      const changed = await fetchOk(
        request('/static', {
          screenshot,
          previousAreasDigest: first.areasDigest as string,
          areas: [css('price', '#price'), css('note', 'p.note')],
        }),
      );
      expect(pictured(changed)).toBe(true);
      expect(changed.areasDigest).not.toBe(first.areasDigest);
    }
    const without = await fetchOk(request('/static', { areas: [css('price', '#price')] }));
    expect(without.areasDigest).toBeUndefined();
  });

  it('presents the reader’s language and time zone to the site: header, navigator.language, clock', async () => {
    const areas = [css('accept', '#accept'), css('language', '#language'), css('zone', '#zone')];
    const japanese = await fetchOk(
      request('/locale-echo', {
        areas,
        reader: { lang: 'ja', timeZone: 'Etc/GMT-9' },
        accountId: 'reader-ja',
      }),
    );
    expect(japanese.areas.map((area) => area.text)).toEqual(['ja-JP', 'ja-JP', 'Etc/GMT-9']);
    // The same account's next check in another language does not reuse the warm context.
    const english = await fetchOk(
      request('/locale-echo', {
        areas,
        reader: { lang: 'en', timeZone: 'America/New_York' },
        accountId: 'reader-ja',
      }),
    );
    expect(english.areas.map((area) => area.text)).toEqual(['en-US', 'en-US', 'America/New_York']);
    // A zone this runtime does not know is left out rather than failing the check.
    const unknownZone = await fetchOk(
      request('/locale-echo', { areas, reader: { lang: 'ja', timeZone: 'Mars/Base' } }),
    );
    expect(unknownZone.areas[1]?.text).toBe('ja-JP');
  });

  it('measures where each area is drawn on the page screenshot, in its pixels', async () => {
    const result = await fetchOk(
      request('/placed', {
        screenshot: 'page',
        viewport: { width: 2400, height: 900 },
        areas: [css('price', '#price')],
      }),
    );
    const image = await sharp(result.pageScreenshot?.data as Uint8Array)
      .raw()
      .toBuffer({ resolveWithObject: true });
    // 2400 CSS pixels are scaled to 1280: the element's 900, 1400, 300 × 60 become these.
    expect(image.info.width).toBe(1280);
    const box = result.areas[0]?.pageBox;
    expect(box).toBeDefined();
    const scale = 1280 / 2400;
    for (const [measured, expected] of [
      [box?.x, 900 * scale],
      [box?.y, 1400 * scale],
      [box?.width, 300 * scale],
      [box?.height, 60 * scale],
    ]) {
      expect(Math.abs((measured ?? -100) - (expected as number))).toBeLessThanOrEqual(1);
    }
    // And the image shows the element there: blue inside the box, white just outside it.
    const { x = 0, y = 0, width = 0, height = 0 } = box ?? {};
    const colour = (px: number, py: number): [number, number, number] => {
      const at = (Math.round(py) * image.info.width + Math.round(px)) * image.info.channels;
      return [image.data[at] ?? 0, image.data[at + 1] ?? 0, image.data[at + 2] ?? 0];
    };
    for (const [px, py] of [
      [x + 3, y + 3],
      [x + width - 4, y + height - 4],
      [x + width / 2, y + 3],
    ]) {
      const [red, , blue] = colour(px as number, py as number);
      expect(blue - red).toBeGreaterThan(120);
    }
    for (const [px, py] of [
      [x - 3, y + height / 2],
      [x + width + 2, y + height / 2],
      [x + width / 2, y - 3],
      [x + width / 2, y + height + 2],
    ]) {
      expect(Math.min(...colour(px as number, py as number))).toBeGreaterThan(200);
    }
  });

  it('replaces a browser killed mid-check and still completes that check', async () => {
    const [victim] = browserProcesses();
    expect(victim).toBeDefined();
    const running = fetcher.fetch(
      request('/delayed', { areas: [css('done', '#done')] }),
      new AbortController().signal,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.kill(victim as number, 'SIGKILL');
    const result = await running;
    if (!result.ok) throw new Error(`${result.code}: ${result.detail}`);
    expect(result.areas[0]?.text).toBe('finally');
    expect(browserProcesses()).not.toContain(victim);
    const next = await fetchOk(request('/static', { areas: [css('price', '#price')] }));
    expect(next.areas[0]?.text).toBe('¥1,200');
  });

  it('loads the page again on a warm page that shows the same document at another fragment', async () => {
    // One attempt: a retry on a fresh context would hide a warm page that loaded nothing.
    const once = createBrowserPageFetcher({ pool, attempts: 1 });
    for (const fragment of ['#prices', '#news', '#news']) {
      const result = await once.fetch(
        request(`/static${fragment}`, { accountId: 'account-fragments', areas: [css('price', '#price')] }),
        new AbortController().signal,
      );
      if (!result.ok) throw new Error(`expected a snapshot, got ${result.code}: ${result.detail}`);
      expect(result.status).toBe(200);
      expect(result.areas[0]?.text).toBe('¥1,200');
    }
  });

  it('reuses a warm context for the next check of the same account, never for another account', async () => {
    const cookiesSeen = async (accountId?: string) => {
      const result = await fetchOk(
        request('/cookie-echo', { ...(accountId ? { accountId } : {}), areas: [css('c', '#cookies')] }),
      );
      return result.areas[0]?.text;
    };
    expect(await cookiesSeen('account-1')).toBe('none');
    expect(await cookiesSeen('account-1')).toBe('seen=yes');
    expect(await cookiesSeen('account-2')).toBe('none');
    expect(await cookiesSeen()).toBe('none');
  });
});
