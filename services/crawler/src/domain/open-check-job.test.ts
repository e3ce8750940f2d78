import { checksEventsV1 } from '@mimamori/contracts';
import { createSecretBox, generateSecretKey } from '@mimamori/secret-box';
import { describe, expect, it } from 'vitest';
import { InvalidJobError, openCheckJob, sealingContext } from './open-check-job.ts';

const secrets = createSecretBox(generateSecretKey('k1'));
const css = (selector: string) => ({
  selector,
  selectorType: 'css',
  frameSelector: '',
  frameSelectorType: '',
});

const job = (overrides: Partial<checksEventsV1.RunCheck> = {}) =>
  checksEventsV1.RunCheck.fromPartial({
    checkId: 't1:2026-11-23T10:00:00.000Z',
    targetId: 't1',
    userId: 'u1',
    url: 'https://example.jp/news',
    fetchMode: 'browser',
    userAgentKind: 'iphone',
    areas: [
      {
        areaId: 'a1',
        locator: { ...css('#news'), frameSelector: '//iframe[1]', frameSelectorType: 'xpath' },
      },
    ],
    screenshot: 'areas',
    ...overrides,
  });

describe('openCheckJob', () => {
  it('opens sealed cookies, session and typed texts with their own contexts', () => {
    const request = openCheckJob(
      job({
        sealedCookies: secrets.seal('sid=abc', sealingContext.cookies('t1')),
        sealedSessionState: secrets.seal('{"cookies":[]}', sealingContext.session('t1')),
        previousAreasDigest: 'ab12',
        login: {
          actions: [
            {
              type: 'enter_text',
              locator: css('#password'),
              value: '',
              sealedValue: secrets.seal('hunter22', sealingContext.loginAction('t1', 0)),
              skippable: false,
            },
            {
              type: 'click',
              locator: css('button[type=submit]'),
              value: '',
              sealedValue: '',
              skippable: false,
            },
          ],
          verifyKind: 'cookie',
          verifyCookieName: 'sid',
        },
        actions: [{ type: 'goto_url', value: 'https://example.jp/mypage', sealedValue: '', skippable: true }],
        useProxy: true,
      }),
      secrets,
      () => 'http://proxy.example:3128',
    );
    expect(request).toEqual({
      url: 'https://example.jp/news',
      mode: 'browser',
      userAgent: { kind: 'iphone' },
      cookies: 'sid=abc',
      sessionState: '{"cookies":[]}',
      revalidate: true,
      targetId: 't1',
      previousAreasDigest: 'ab12',
      login: {
        actions: [
          {
            type: 'enter_text',
            locator: { selector: '#password', selectorType: 'css' },
            value: 'hunter22',
            skippable: false,
          },
          {
            type: 'click',
            locator: { selector: 'button[type=submit]', selectorType: 'css' },
            skippable: false,
          },
        ],
        verify: { kind: 'cookie', name: 'sid' },
      },
      actions: [{ type: 'goto_url', value: 'https://example.jp/mypage', skippable: true }],
      areas: [
        {
          areaId: 'a1',
          selector: '#news',
          selectorType: 'css',
          frame: { selector: '//iframe[1]', selectorType: 'xpath' },
        },
      ],
      screenshot: 'areas',
      proxyUrl: 'http://proxy.example:3128',
      accountId: 'u1',
    });
  });

  it('refuses a value sealed for another target or field, without showing it', () => {
    const moved = job({ sealedCookies: secrets.seal('sid=abc', sealingContext.cookies('t2')) });
    expect(() => openCheckJob(moved, secrets, () => undefined)).toThrow(InvalidJobError);
    expect(() => openCheckJob(moved, secrets, () => undefined)).toThrow(
      'the cookies could not be opened (wrong key or context)',
    );
    expect(() => openCheckJob(moved, undefined, () => undefined)).toThrow(/SECRET_KEYS is not configured/);
  });

  it('asks a browser check to revalidate with its opened state, unless the person insists on the browser', () => {
    const sealed = secrets.seal('{"v":1}', sealingContext.revalidation('t1'));
    expect(openCheckJob(job({ sealedRevalidationState: sealed }), secrets, () => undefined)).toMatchObject({
      revalidate: true,
      revalidation: '{"v":1}',
    });
    const insisted = openCheckJob(
      job({ sealedRevalidationState: sealed, alwaysRender: true }),
      secrets,
      () => undefined,
    );
    expect(insisted.revalidate).toBeUndefined();
    expect(insisted.revalidation).toBeUndefined();
    const http = openCheckJob(
      job({ fetchMode: 'http', sealedRevalidationState: sealed }),
      secrets,
      () => undefined,
    );
    expect(http.revalidate).toBeUndefined();
    // A state that does not open (another target's, a rotated key) only costs a full render.
    const moved = secrets.seal('{"v":1}', sealingContext.revalidation('t2'));
    const request = openCheckJob(job({ sealedRevalidationState: moved }), secrets, () => undefined);
    expect(request).toMatchObject({ revalidate: true });
    expect(request.revalidation).toBeUndefined();
  });

  it('carries the account’s language and time zone to the fetch, or none when the job has none', () => {
    const japanese = openCheckJob(
      job({ readerLang: 'ja', readerTimeZone: 'Asia/Tokyo' }),
      secrets,
      () => undefined,
    );
    expect(japanese.reader).toEqual({ lang: 'ja', timeZone: 'Asia/Tokyo' });
    expect(openCheckJob(job(), secrets, () => undefined).reader).toBeUndefined();
  });

  it("carries each area's excluded elements from its watch options, for screenshots to mask", () => {
    const opened = openCheckJob(
      job({
        areas: [
          { areaId: 'a1', locator: css('#card') },
          { areaId: 'a2', locator: css('#other') },
          { areaId: 'a3', locator: css('#third') },
        ],
        watch: checksEventsV1.WatchSettings.fromPartial({
          areas: [
            {
              areaId: 'a1',
              optionsJson: JSON.stringify({ excludeElements: [':scope > p:nth-of-type(2)', 3] }),
            },
            { areaId: 'a2', optionsJson: '{not json' },
          ],
        }),
      }),
      secrets,
      () => undefined,
    );
    expect(opened.areas.map((area) => area.excludeElements)).toEqual([
      [':scope > p:nth-of-type(2)'],
      undefined,
      undefined,
    ]);
  });

  it('refuses unknown modes and selector types', () => {
    expect(() => openCheckJob(job({ fetchMode: 'ftp' }), secrets, () => undefined)).toThrow(
      /unknown fetch mode/,
    );
    expect(() =>
      openCheckJob(
        job({ areas: [{ areaId: 'a', locator: { ...css('x'), selectorType: 'regex' } }] }),
        secrets,
        () => undefined,
      ),
    ).toThrow(/unknown selector type/);
  });

  it('refuses a check that asks for a proxy when this crawler has no proxy pool', () => {
    expect(() => openCheckJob(job({ useProxy: true }), secrets, () => undefined)).toThrow(
      'the site uses a proxy, and this crawler has no proxy pool (CRAWLER_PROXIES)',
    );
    expect(openCheckJob(job({ useProxy: false }), secrets, () => undefined).proxyUrl).toBeUndefined();
  });

  it('carries a document kind and its areas as the kind names them, in http mode only', () => {
    const area = (selector: string, selectorType: string) => ({
      areaId: 'a',
      locator: { selector, selectorType, frameSelector: '', frameSelectorType: '' },
    });
    const pdf = openCheckJob(
      job({ fetchMode: 'http', screenshot: 'none', contentKind: 'pdf', areas: [area('2-3', 'pages')] }),
      secrets,
      () => undefined,
    );
    expect(pdf).toMatchObject({
      mode: 'http',
      contentKind: 'pdf',
      areas: [{ selector: '2-3', selectorType: 'pages' }],
    });
    expect(openCheckJob(job(), secrets, () => undefined).contentKind).toBeUndefined();
    expect(() =>
      openCheckJob(
        job({ fetchMode: 'http', contentKind: 'json', areas: [area('#a', 'css')] }),
        secrets,
        () => undefined,
      ),
    ).toThrow('a json area is not found by "css"');
    expect(() =>
      openCheckJob(job({ contentKind: 'xml', areas: [area('//a', 'xpath')] }), secrets, () => undefined),
    ).toThrow('a xml target is read in http mode, not browser');
    expect(() => openCheckJob(job({ contentKind: 'csv' }), secrets, () => undefined)).toThrow(
      /unknown content kind/,
    );
  });
});
