import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, createShutdown, type Shutdown } from '@mimamori/runtime';
import {
  createHttpVisitor,
  type HttpVisitor,
  TEST_MINUTE_MS,
  TEST_TIME_SCALE,
} from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSite, serveFixtureSite } from '../services/crawler/test/fixture-site.ts';
import { type Standalone, startStandalone } from '../standalone/src/start-standalone.ts';
import { registerSite, untilChecked } from './rig/account-steps.ts';
import { waitFor } from './rig/wait-for.ts';

// Issue 35, documents and data: a PDF, a JSON API and an RSS feed served by a local server are
// registered as targets in the single-process mode; each is changed after its registration check,
// and the check a minute later records an update whose mail shows the changed lines.
const EMAIL = 'documents@example.jp';
const logger = createLogger({ service: 'documents-standalone-test', level: 'silent' });

const pdf = (version: 1 | 2) =>
  readFile(new URL(`../services/crawler/test/documents/ir-report-v${version}.pdf`, import.meta.url));
const api = (price: number) =>
  JSON.stringify({ products: [{ name: '煎茶 100g', price, stock: '在庫あり' }], updated: '2026-11-21' });
const feed = (titles: string[]) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>IRニュース</title>
${titles.map((title) => `<item><title>${title}</title></item>`).join('\n')}
</channel></rss>`;

let documents: Buffer[];
let site: FixtureSite;
let dataDir: string;
let product: Standalone;
let shutdown: Shutdown;
let visitor: HttpVisitor;

beforeAll(async () => {
  documents = [await pdf(1), await pdf(2)];
  site = await serveFixtureSite((path, _incoming, response) => {
    // The registration check reads each document as it was; every later read finds it changed,
    // however soon after the registration the next check comes.
    const changed = site.hits(path) > 1;
    if (path === '/ir.pdf') {
      // Served as many IR pages serve them: a download, known by its magic bytes.
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(documents[changed ? 1 : 0]);
    } else if (path === '/api/products') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(api(changed ? 980 : 1200));
    } else if (path === '/feed.xml') {
      response.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
      response.end(
        feed(
          changed ? ['配当予想の修正に関するお知らせ', '決算短信を公開しました'] : ['決算短信を公開しました'],
        ),
      );
    } else {
      response.writeHead(404).end();
    }
  });
  dataDir = await mkdtemp(join(tmpdir(), 'mimamori-documents-'));
  shutdown = createShutdown({ logger, timeoutMs: 10_000 });
  product = await startStandalone({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    timeScale: TEST_TIME_SCALE,
    crawlerAllow: [site.authority],
    logger,
    shutdown,
  });
}, 120_000);

afterAll(async () => {
  await shutdown?.run('test finished');
  await site?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function signUp(): Promise<HttpVisitor> {
  const guest = createHttpVisitor(product.url);
  await guest.get('/healthz');
  const signedUp = await guest.post('/api/signup', {
    email: EMAIL,
    password: 'abcd1234',
    agree: true,
    lang: 'ja',
    timezone: 'Asia/Tokyo',
  });
  expect(signedUp.status).toBe(202);
  const [verification] = await waitFor(
    'the verification mail',
    async () => {
      const mails = await product.mailbox.list();
      return mails.length > 0 && mails;
    },
    30_000,
  );
  const mail = await product.mailbox.read(verification?.id ?? '');
  const token = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
  expect((await guest.post('/api/verify', { token })).status).toBe(200);
  expect((await guest.post('/api/signin', { email: EMAIL, password: 'abcd1234' })).status).toBe(200);
  return guest;
}

const registration = (label: string, path: string, contentKind: string, locator: object) => ({
  label,
  url: `${site.origin}${path}`,
  interval_minutes: 60,
  mail_notify: true,
  fetch_mode: 'http',
  content_kind: contentKind,
  areas: [{ area_id: 'a', label, content: '', locator, options: { stripTags: true } }],
});

/** The text of the update mail of the site labelled `label`, once it came. */
async function updateMailText(label: string): Promise<string> {
  const mail = await waitFor(
    `the update mail of ${label}`,
    async () => (await product.mailbox.list()).find((listed) => listed.subject?.includes(label)),
    TEST_MINUTE_MS * 2 + 60_000,
  ).catch(async (error: Error) => {
    const subjects = (await product.mailbox.list()).map((listed) => listed.subject);
    throw new Error(`${error.message}; the mailbox holds ${JSON.stringify(subjects)}`);
  });
  return (await product.mailbox.read(mail.id))?.text ?? '';
}

describe('documents and data as targets in the single-process mode', () => {
  it('registers a PDF, a JSON API and an RSS feed; a change in each is an update with its lines', async () => {
    visitor = await signUp();
    const refused = await visitor.post(
      '/api/v2/target/register',
      registration('壊れた JSONPath', '/api/products', 'json', {
        selector: '$.products[',
        selector_type: 'jsonpath',
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: { code: 'selector_invalid', field: 'areas[0].locator.selector', reason: 'jsonpath_invalid' },
    });

    const sites = [
      await registerSite(
        visitor,
        registration('決算短信 PDF', '/ir.pdf', 'pdf', { selector: '配当予想', selector_type: 'text' }),
      ),
      await registerSite(
        visitor,
        registration('商品 API', '/api/products', 'json', {
          selector: '$.products[*].price',
          selector_type: 'jsonpath',
        }),
      ),
      await registerSite(
        visitor,
        registration('IR フィード', '/feed.xml', 'xml', { selector: '//item/title', selector_type: 'xpath' }),
      ),
    ];
    // The registration checks record the documents as they are; the next, a minute later, finds the change.
    await untilChecked(visitor, sites);

    expect(await updateMailText('決算短信 PDF')).toContain(
      '- 配当予想：1株当たり1,200円\n+ 配当予想：1株当たり980円',
    );
    expect(await updateMailText('商品 API')).toContain('- 1200\n+ 980');
    const feedMail = await updateMailText('IR フィード');
    expect(feedMail).toContain('+ 配当予想の修正に関するお知らせ');
    expect(feedMail).not.toContain('- 決算短信を公開しました');
  }, 180_000);
});
