import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { APIRequestContext, Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './chromium.ts';
import { linkFromMailbox } from './mailbox.ts';
import { type RunningProduct, repoRoot, startProduct } from './product.ts';

let product: RunningProduct;
let browser: Browser;
const shots = join(repoRoot, 'test-results');

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchChromium()]);
  await mkdir(shots, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

const pageUrl = (path: string) => new URL(path, product.url).href;

/** The gateway's API as the SPA calls it: the browser's cookies, the CSRF cookie echoed in a header. */
type Api = { post: (path: string, body: unknown) => Promise<{ status: number; body: unknown }> };

function apiOf(context: BrowserContext): Api {
  const request: APIRequestContext = context.request;
  return {
    async post(path, body) {
      const csrf = (await context.cookies(product.url.href)).find((cookie) => cookie.name === 'csrf_token');
      const answer = await request.post(pageUrl(path), {
        data: body,
        headers: csrf ? { 'x-csrf-token': csrf.value } : {},
      });
      return { status: answer.status(), body: await answer.json().catch(() => undefined) };
    },
  };
}

/** A verified, signed-in user talking to the API directly, for what a screen cannot show. */
async function signedInApi(email: string): Promise<{ api: Api; context: BrowserContext }> {
  const context = await browser.newContext();
  // The first answer sets the CSRF cookie.
  await context.request.get(pageUrl('/api/user_info'));
  const api = apiOf(context);
  const password = 'journey-pass-1';
  expect((await api.post('/api/signup', { email, password, agree: true, lang: 'en' })).status).toBe(202);
  const link = new URL(await linkFromMailbox(product.url, email, '/verify'), product.url);
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
