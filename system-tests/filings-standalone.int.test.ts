import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, createShutdown, type Shutdown } from '@mimamori/runtime';
import { createHttpVisitor, type HttpVisitor, TEST_TIME_SCALE } from '@mimamori/test-fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FilingsStandIn, startFilingsStandIn } from '../services/filings/test/filings-stand-in.ts';
import { type Standalone, startStandalone } from '../standalone/src/start-standalone.ts';
import { searchUntilFound } from './rig/search-directory.ts';
import { waitFor } from './rig/wait-for.ts';

// Issue 16 end to end in the single-process mode: PGlite, the in-process bus, the local mailbox
// and the product's own /dev/discord; the SEC replayed by the filings stand-in, polled every 10 s of
// the product's time, a few times a second under the tests' time scale.
const POLL_MS = 10_000 / TEST_TIME_SCALE;
const EMAIL = 'filings-standalone@example.jp';
const logger = createLogger({ service: 'filings-standalone-test', level: 'silent' });

let dataDir: string;
let sources: FilingsStandIn;
let product: Standalone;
let shutdown: Shutdown;
let visitor: HttpVisitor;

async function start() {
  shutdown = createShutdown({ logger, timeoutMs: 10_000 });
  product = await startStandalone({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    timeScale: TEST_TIME_SCALE,
    filings: { ...sources.settings(['sec']), pollIntervalMs: POLL_MS },
    logger,
    shutdown,
  });
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mimamori-filings-'));
  sources = await startFilingsStandIn();
  sources.submissions.push({
    accession: '0000320193-26-000001',
    acceptedAt: new Date(Date.now() - 3_600_000),
    form: '10-K',
  });
  await start();
}, 120_000);

afterAll(async () => {
  await shutdown?.run('test finished');
  await sources?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const polls = () =>
  sources.server.requests.filter((request) => request.path.startsWith('/submissions/')).length;
async function pollsAfter(count: number) {
  const seen = polls();
  await waitFor(`${count} more polls`, () => polls() >= seen + count, count * POLL_MS + 60_000);
}
const subject = (form: string) => `【Mimamori】新しい開示: Apple Inc.「${form}」`;
async function filingMails(form: string) {
  return (await product.mailbox.list()).filter((mail) => mail.subject === subject(form));
}
/** The Discord messages /dev/discord shows whose title is the form. */
async function discordMessages(form: string): Promise<number> {
  const page = String((await visitor.get('/dev/discord')).body);
  return page.split(`>${form}<`).length - 1;
}

describe('company filings in the single-process mode', () => {
  it('follows Apple; one new filing brings one mail and one Discord message, once, across a restart', async () => {
    visitor = createHttpVisitor(product.url);
    await visitor.get('/healthz');
    const signUp = await visitor.post('/api/signup', {
      email: EMAIL,
      password: 'abcd1234',
      agree: true,
      lang: 'ja',
      timezone: 'Asia/Tokyo',
    });
    expect(signUp.status).toBe(202);
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
    expect((await visitor.post('/api/verify', { token })).status).toBe(200);
    expect((await visitor.post('/api/signin', { email: EMAIL, password: 'abcd1234' })).status).toBe(200);
    const linked = await visitor.post('/api/account/discord', {
      webhook_url:
        'https://discord.com/api/webhooks/100000000000000001/mimamori-local-stand-in-mimamori-local-stand-in',
    });
    expect(JSON.stringify(linked.body)).toContain('"complete"');

    expect(await searchUntilFound(visitor, '/api/cik/search', '320193')).toMatchObject([{ cik: '320193' }]);
    const followed = await visitor.post('/api/cik/register', { cik: '320193' });
    expect(followed.status).toBe(200);
    expect((await visitor.get('/api/user_info')).body).toMatchObject({
      cik_isins: [{ cik: '320193', label: 'Apple Inc.' }],
    });
    // The backlog is recorded, not announced.
    await pollsAfter(2);
    expect(await filingMails('10-K')).toEqual([]);

    sources.submissions.push({ accession: '0000320193-26-000002', acceptedAt: new Date(), form: '8-K' });
    const [announced] = await waitFor(
      'the filing mail',
      async () => {
        const mails = await filingMails('8-K');
        return mails.length > 0 && mails;
      },
      90_000,
    );
    const text = (await product.mailbox.read(announced?.id ?? ''))?.text ?? '';
    expect(text).toContain('企業: Apple Inc. (320193)');
    expect(text).toContain('（日本時間）');
    expect(text).toContain('/Archives/edgar/data/320193/000032019326000002/0000320193-26-000002.htm');
    await waitFor('the Discord message', async () => (await discordMessages('8-K')) === 1, 60_000);
    await pollsAfter(2);
    expect(await filingMails('8-K')).toHaveLength(1);
    expect(await discordMessages('8-K')).toBe(1);

    // A restart right after the poll that lists the next filing: the same data folder, so the
    // seen filings, the outbox and the delivery ledger carry over.
    sources.submissions.push({ accession: '0000320193-26-000003', acceptedAt: new Date(), form: '8-K/A' });
    const seen = polls();
    await waitFor('the poll that lists it', () => polls() > seen, POLL_MS + 60_000);
    await shutdown.run('restart');
    await start();
    visitor = createHttpVisitor(product.url);
    await waitFor('the filing mail', async () => (await filingMails('8-K/A')).length > 0, 90_000);
    await pollsAfter(2);
    expect(await filingMails('8-K/A')).toHaveLength(1);
    expect(await filingMails('8-K')).toHaveLength(1);
    expect(await filingMails('10-K')).toEqual([]);
  }, 180_000);
});
